import { describe, expect, it } from 'vitest';
import { sessionObjectSchema } from '@talkbooth/protocol';
import { ConsoleBrowser } from '../../test-support/console-browser.js';
import { serversClosedAfterEachTest } from '../../test-support/test-server.js';

const start = serversClosedAfterEachTest();

/** What the booth does with a code: check it, then start the call with the key it got. */
async function boothCall(baseUrl: string, code: string, fallbackKey: string) {
  const checked = await fetch(`${baseUrl}/api/get-assistant`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ unicode: code }),
  });
  const session = sessionObjectSchema.parse(await checked.json());
  const created = await fetch(`${baseUrl}/platform/call/web`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${session.platformPublicKey ?? fallbackKey}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ assistantId: session.assistantId }),
  });
  return { session, created };
}

/**
 * A server whose demo organisation has its owner, and a clinic registered after it (so in
 * an organisation of its own) with an assistant and an access code for it.
 */
async function secondClinicWithCode() {
  const server = await start();
  await new ConsoleBrowser(server.baseUrl).register({
    username: 'Demo owner',
    email: 'demo@example.com',
    password: 'demo password',
  });
  const clinic = new ConsoleBrowser(server.baseUrl);
  await clinic.join({
    username: 'Dental',
    email: 'dental@example.com',
    password: 'dental password',
  });
  const platform = clinic.platform();
  const assistant = await platform.assistant.create({ name: 'Dental front desk' });
  const { code } = await platform.accessCode.create({ assistantId: assistant.id });
  return { server, clinic, platform, assistant, code };
}

describe('a second organisation’s access codes in the booth (real server, real database)', () => {
  it('start calls with that organisation’s own public key, never another’s', async () => {
    const { server, clinic, platform, assistant, code } = await secondClinicWithCode();

    const { session, created } = await boothCall(server.baseUrl, code, server.publicKey!);
    expect(session.assistantId).toBe(assistant.id);
    expect(session.platformPublicKey).toMatch(/^tb_public_/);
    expect(session.platformPublicKey).not.toBe(server.publicKey);
    expect(created.status).toBe(201);
    const call = (await created.json()) as { id: string; orgId: string };
    expect((await platform.call.get(call.id)).orgId).toBe(assistant.orgId);

    // The key is the organisation's, listed in its console, and made once.
    const keys = (await clinic.get('/console/api/keys')).json as { kind: string; name: string }[];
    expect(keys.filter((k) => k.kind === 'public')).toHaveLength(1);
    const again = await boothCall(server.baseUrl, code, server.publicKey!);
    expect(again.session.platformPublicKey).toBe(session.platformPublicKey);

    // The web app's own key (the demo organisation's) cannot reach this assistant.
    const withDemoKey = await fetch(`${server.baseUrl}/platform/call/web`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.publicKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ assistantId: assistant.id }),
    });
    expect(withDemoKey.status).toBe(400);
  });

  it('gives no key once the organisation’s owners revoked its public keys', async () => {
    const { server, clinic, code } = await secondClinicWithCode();
    await boothCall(server.baseUrl, code, server.publicKey!);
    const [key] = (await clinic.get('/console/api/keys')).json as { id: string }[];
    expect((await clinic.post(`/console/api/keys/${key!.id}/revoke`)).status).toBe(200);
    const { session, created } = await boothCall(server.baseUrl, code, server.publicKey!);
    expect(session.platformPublicKey).toBeUndefined();
    expect(created.status).toBe(400);
  });
});
