import type { DemoSeedReport } from './db/seed/seed-demo.js';
import type { CreatedKey } from './platform/api-key-service.js';

const LOCAL_HOSTS = new Set(['localhost', '0.0.0.0', '::', '127.0.0.1', '::1']);

/** The address a person on this machine opens. */
export function publicBaseUrl(host: string, port: number): string {
  const shown = LOCAL_HOSTS.has(host) ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}`;
}

/** The lines printed once the server listens: where to go, and the demo link. */
export function startBanner(
  baseUrl: string,
  demo: DemoSeedReport,
  createdKeys: CreatedKey[] = [],
  webKeyOrigins: string[] | null = null,
): string {
  const lines = ['', `  Talkbooth is running at ${baseUrl}`, ''];
  if (demo.demoCode !== null) {
    const link = `${baseUrl}/?unicode=${encodeURIComponent(demo.demoCode)}`;
    lines.push(
      `  Demo assistant:  ${demo.assistantName ?? ''}`,
      `  Demo UniCode:    ${demo.demoCode}`,
      `  Open the demo:   ${link}`,
    );
    if (!demo.pinned) {
      lines.push('', '  (A new demo code is issued at every start; set DEMO_UNICODE to keep one.)');
    }
  } else {
    lines.push('  The demo assistant has been removed, so there is no demo link.');
  }
  lines.push(`  Register:        ${baseUrl}/register`);
  lines.push(`  Platform API:    ${baseUrl}/platform  (OpenAPI: ${baseUrl}/platform/openapi.json)`);
  if (webKeyOrigins !== null) {
    lines.push(
      webKeyOrigins.length > 0
        ? `  Web app's public key works from: ${webKeyOrigins.join(', ')}`
        : "  Web app's public key works from any origin (set PLATFORM_ALLOWED_ORIGINS to limit it).",
    );
  }
  if (createdKeys.length > 0) {
    lines.push(
      '',
      '  New platform API keys. They are shown this once and stored hashed; keep them safe:',
    );
    for (const { key, record } of createdKeys) lines.push(`    ${record.kind.padEnd(8)} ${key}`);
    lines.push('  (Manage keys with `npm run keys -- list|create|revoke`.)');
  }
  lines.push('');
  return lines.join('\n');
}
