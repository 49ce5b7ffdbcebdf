import { randomToken } from './tokens.js';

export type ApiKeyKind = 'private' | 'public';

const PREFIX: Record<ApiKeyKind, string> = { private: 'tb_private_', public: 'tb_public_' };

/** A new API key: a kind prefix (so a leaked key is recognisable) and 256 random bits. */
export function generateApiKey(kind: ApiKeyKind): string {
  return PREFIX[kind] + randomToken(32);
}

/** The last four characters, shown in lists to tell keys apart. */
export function keyHint(key: string): string {
  return key.slice(-4);
}
