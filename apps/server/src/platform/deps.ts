import type { AccountAuth } from '../console/account-auth.js';
import type { CallControl } from '@talkbooth/protocol';
import type { Kysely } from 'kysely';
import type { CallAdmission } from '../calls/call-admission.js';
import type { ServerLifecycle } from '../lifecycle.js';
import type { AssistantRepository, StoredAssistant } from '../db/repositories/assistants.js';
import type { CallRepository } from '../db/repositories/calls.js';
import type { CredentialRepository } from '../db/repositories/credentials.js';
import type { PhoneNumberRepository } from '../db/repositories/phone-numbers.js';
import type { Database } from '../db/schema.js';
import type { AddressPlaces } from '../scale-out/address-places.js';
import type { CallDispatch } from '../scale-out/call-dispatch.js';
import type { ApiKeyService } from './api-key-service.js';

/** What the platform routes need, handed over by the composition root. */
export interface PlatformDeps {
  db: Kysely<Database>;
  keys: ApiKeyService;
  /** Console sessions, which the platform API accepts in place of a key. */
  accounts?: AccountAuth;
  assistants: AssistantRepository;
  calls: CallRepository;
  credentials: CredentialRepository;
  phoneNumbers: PhoneNumberRepository;
  /** Key for hashing access codes. */
  codeKey: Buffer;
  /** Where recordings were files before they moved into the database (`<call id>.wav`). */
  legacyRecordingsDir: string;
  /** Client addresses no rate limit applies to. */
  rateLimitExemptIps: string[];
  /** Places for live calls (MAX_LIVE_CALLS and the per-address cap). */
  admission: CallAdmission;
  /** ROLE=api: new calls go to the least-loaded voice worker instead of this process. */
  dispatch?: CallDispatch | undefined;
  /** ROLE=api: the per-address cap, counted in Redis across API processes. */
  addressPlaces?: AddressPlaces | undefined;
  lifecycle: ServerLifecycle;
  /** PUBLIC_URL, for the links handed out (webCallUrl). */
  publicUrl: string | undefined;
  now: () => Date;
  /**
   * Called with each assistant created or changed, to prepare what its calls will need
   * (its language model) in the background. Errors are the callee's to report.
   */
  prepareAssistant?: (assistant: StoredAssistant) => void;
  /**
   * Hands a live-call control to the process running the call (this one, or through Redis
   * any one): 'not-running' when no process here runs it. Rejects when Redis does not answer.
   */
  controlCall: (callId: string, control: CallControl) => Promise<'sent' | 'not-running'>;
}

/** How long the token in a webCallUrl may wait to be used. */
export const JOIN_TOKEN_TTL_MS = 60_000;
