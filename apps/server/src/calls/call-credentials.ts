import type { CredentialRepository } from '../db/repositories/credentials.js';

/** The provider keys one call may use, and the ones it may not (with why). */
export interface CallCredentials {
  keys: Map<string, string>;
  /** Set when the organisation's custom-llm key was kept back from this call. */
  withheld?: string;
}

/** A URL compared as the endpoint it names: same scheme, host, port and path. */
function sameEndpoint(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  try {
    const strip = (url: string) => {
      const parsed = new URL(url);
      return `${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/\/+$/, '')}`;
    };
    return strip(a) === strip(b);
  } catch {
    return false;
  }
}

/**
 * The organisation's newest key per provider, for a call whose model endpoint is
 * `modelUrl` (after the call's overrides). A custom-llm key is only ever sent to a URL the
 * organisation stored: the `url` stored with the credential, or `storedModelUrl`, the
 * `model.url` of the stored assistant the call runs. A URL that came with the call itself
 * (an inline assistant, an override) gets no key: otherwise anybody able to start a call
 * could have the key sent to a server of theirs.
 */
export async function credentialsForCall(
  credentials: CredentialRepository,
  orgId: string,
  endpoint: { modelUrl: string | undefined; storedModelUrl: string | undefined },
): Promise<CallCredentials> {
  const keys = new Map<string, string>();
  let withheld: string | undefined;
  for (const credential of await credentials.newestByProvider(orgId)) {
    const { provider, apiKey, url } = credential.body as {
      provider: string;
      apiKey?: unknown;
      url?: unknown;
    };
    if (typeof apiKey !== 'string') continue;
    if (provider === 'custom-llm') {
      const stored = typeof url === 'string' ? url : undefined;
      const trusted =
        sameEndpoint(endpoint.modelUrl, stored) ||
        sameEndpoint(endpoint.modelUrl, endpoint.storedModelUrl);
      if (!trusted) {
        if (endpoint.modelUrl !== undefined)
          withheld =
            'the custom-llm key was not sent: this call’s model.url is not one stored with the key or the assistant';
        continue;
      }
    }
    keys.set(provider, apiKey);
  }
  return withheld === undefined ? { keys } : { keys, withheld };
}
