import { afterEach, describe, expect, it } from 'vitest';
import { killMainProcesses, startMain } from './test-support/main-process.js';

afterEach(killMainProcesses);

describe('the server entry point (built, as `npm start` runs it)', () => {
  it('prints a start banner whose demo link opens the demo assistant, and stops cleanly on SIGTERM', async () => {
    const server = startMain({});
    const [, link] = await server.waitFor(/Open the demo:\s+(http:\/\/\S+)/);
    const url = new URL(link!);
    expect(url.hostname).toBe('localhost');
    const code = url.searchParams.get('unicode');
    expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(server.output().stdout).toContain('A new demo code is issued at every start');
    expect(server.output().stdout).toContain(
      "Web app's public key works from any origin (set PLATFORM_ALLOWED_ORIGINS to limit it).",
    );

    const response = await fetch(`http://127.0.0.1:${url.port}/api/get-assistant`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ unicode: code }),
    });
    expect(await response.json()).toMatchObject({ assistantName: 'Riverside Clinic front desk' });

    // First start: both platform keys are printed once, and they work.
    const [, privateKey] = await server.waitFor(/private\s+(tb_private_\S+)/);
    const [, publicKey] = await server.waitFor(/public\s+(tb_public_\S+)/);
    const assistants = await fetch(`http://127.0.0.1:${url.port}/platform/assistant`, {
      headers: { authorization: `Bearer ${privateKey}` },
    });
    expect(assistants.status).toBe(200);
    const config = (await (
      await fetch(`http://127.0.0.1:${url.port}/api/client-config`)
    ).json()) as {
      platformPublicKey: string;
    };
    expect(config.platformPublicKey).toBe(publicKey);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);

    // The next start on the same data prints no keys: they were shown once.
    const again = startMain({}, server.dataDir);
    await again.waitFor(/Open the demo:/);
    expect(again.output().stdout).not.toMatch(/tb_(private|public)_/);
  });

  it('refuses to start with a bad setting and says which one and why', async () => {
    const server = startMain({ PORT: 'abc', LOG_LEVEL: 'chatty' });
    expect(await server.exited).toBe(1);
    expect(server.output().stderr).toContain('Invalid configuration:');
    expect(server.output().stderr).toContain('PORT must be a number (got "abc")');
    expect(server.output().stderr).toContain('LOG_LEVEL must be one of');
  });

  it('says so when the port is taken', async () => {
    const first = startMain({ DEMO_UNICODE: 'first-server' });
    const [, link] = await first.waitFor(/Open the demo:\s+(http:\/\/\S+)/);
    const port = new URL(link!).port;
    const second = startMain({ PORT: port });
    expect(await second.exited).toBe(1);
    expect(second.output().stderr).toContain(`Port ${port} is already in use.`);
  });
});
