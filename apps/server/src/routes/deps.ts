import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import type { ApiKeyService } from '../platform/api-key-service.js';

/** How many wrong access codes one client may try per window before it must wait. */
export interface GuessLimit {
  max: number;
  timeWindowMs: number;
}

/** What the app API routes need, handed over by the composition root. */
export interface AppApiDeps {
  db: Kysely<Database>;
  config: Config;
  /** Key for hashing access codes. */
  codeKey: Buffer;
  guessLimit: GuessLimit;
  /** Hands the web app its public platform key. */
  keys: ApiKeyService;
  now: () => Date;
}
