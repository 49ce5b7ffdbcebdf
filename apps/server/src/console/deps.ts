import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { ApiKeyService } from '../platform/api-key-service.js';
import type { AccountAuth } from './account-auth.js';

/** Sign-in attempts allowed per address and e-mail in a window. */
export interface SignInLimit {
  max: number;
  timeWindowMs: number;
}

/** What the console API routes need, handed over by the composition root. */
export interface ConsoleDeps {
  db: Kysely<Database>;
  auth: AccountAuth;
  keys: ApiKeyService;
  now: () => Date;
  signInLimit: SignInLimit;
  /** The server's public address, for invite links; null to use the request's own. */
  publicUrl: string | undefined;
}
