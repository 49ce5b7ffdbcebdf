import type { Generated } from 'kysely';

/**
 * The database as Kysely sees it. Timestamps are ISO-8601 UTC strings (`toISOString()`),
 * JSON documents are text: both behave the same on SQLite and PostgreSQL, and ISO strings
 * sort and compare correctly as text.
 */
export interface Database {
  orgs: OrgTable;
  assistants: AssistantTable;
  access_codes: AccessCodeTable;
  users: UserTable;
  feedback: FeedbackTable;
  talk_documents: TalkDocumentTable;
  api_keys: ApiKeyTable;
  calls: CallTable;
  call_join_tokens: CallJoinTokenTable;
  call_recordings: CallRecordingTable;
  credentials: CredentialTable;
  phone_numbers: PhoneNumberTable;
  console_sessions: ConsoleSessionTable;
  invites: InviteTable;
  webhook_deliveries: WebhookDeliveryTable;
  webhook_attempts: WebhookAttemptTable;
}

/**
 * `secrets` columns hold sealed JSON (AES-256-GCM, see security/secret-box.ts) of the
 * write-only fields, keyed by their path (`serverUrlSecret`, `assistant.serverUrlSecret`).
 */
export type SealedSecrets = string | null;

export interface OrgTable {
  id: string;
  name: string;
  created_at: string;
  updated_at: string;
}

export interface AssistantTable {
  id: string;
  org_id: string;
  name: string;
  /** The assistant definition (platform field names) as JSON, without its secrets. */
  data: string;
  secrets: SealedSecrets;
  created_at: string;
  updated_at: string;
}

export interface AccessCodeTable {
  id: string;
  org_id: string;
  assistant_id: string;
  /** Keyed hash of the normalised code; the code itself is never stored. */
  code_hash: string;
  /** What the code is for; `demo` and `demo-pinned` mark the seeded demo code. */
  label: string | null;
  expires_at: string | null;
  revoked_at: string | null;
  max_uses: number | null;
  use_count: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface UserTable {
  id: string;
  username: string;
  /** Trimmed and lower-cased, unique. */
  email: string;
  /** argon2id PHC string. */
  password_hash: string;
  /** The organisation the account works in; null only for a row written before 0005. */
  org_id: string | null;
  role: AccountRole | null;
  created_at: string;
  updated_at: string;
}

export interface FeedbackTable {
  id: string;
  product: string;
  call_id: string | null;
  assistant_id: string | null;
  rating: number | null;
  message: string;
  created_at: string;
}

export interface TalkDocumentTable {
  product: string;
  doc_id: string;
  position: number;
  /** The document as JSON (without its id, which is doc_id). */
  data: string;
  created_at: string;
  updated_at: string;
}

export interface ApiKeyTable {
  id: string;
  org_id: string;
  kind: 'private' | 'public';
  name: string;
  /** SHA-256 of the key: keys are 256-bit random, so a plain hash is enough. */
  key_hash: string;
  /** The key's last four characters, to tell keys apart in a list. */
  key_hint: string;
  /** JSON array of origins a public key may be used from; null for any. */
  allowed_origins: string | null;
  /** Public keys only: the key itself, sealed, so the web app can be given it. */
  sealed_key: string | null;
  revoked_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface CallTable {
  id: string;
  org_id: string;
  assistant_id: string | null;
  type: string;
  status: string;
  ended_reason: string | null;
  started_at: string | null;
  ended_at: string | null;
  cost: number | null;
  /** The rest of the call (assistant, overrides, customer, messages…) as JSON. */
  data: string;
  secrets: SealedSecrets;
  /** The process serving the live call, and until when (see calls/call-leases.ts). */
  lease_owner: string | null;
  lease_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface CallJoinTokenTable {
  /** SHA-256 of the single-use token in the webCallUrl. */
  token_hash: string;
  call_id: string;
  expires_at: string;
  used_at: string | null;
}

export interface CallRecordingTable {
  call_id: string;
  /** `audio/wav`. */
  content_type: string;
  /** The whole recording (a few MB for a long call). */
  audio: Buffer;
  created_at: string;
}

export interface CredentialTable {
  id: string;
  org_id: string;
  provider: string;
  /** Non-secret fields as JSON. */
  data: string;
  secrets: SealedSecrets;
  created_at: string;
  updated_at: string;
}

export interface PhoneNumberTable {
  id: string;
  org_id: string;
  provider: 'twilio' | 'vonage';
  number: string;
  assistant_id: string | null;
  credential_id: string | null;
  data: string;
  secrets: SealedSecrets;
  created_at: string;
  updated_at: string;
}

/** What an account may do in its organisation: owner (everything), admin (all but the team and keys), viewer (read only). */
export type AccountRole = 'owner' | 'admin' | 'viewer';

export interface ConsoleSessionTable {
  /** SHA-256 of the session cookie's token. */
  token_hash: string;
  user_id: string;
  expires_at: string;
  created_at: string;
}

export interface InviteTable {
  id: string;
  org_id: string;
  /** SHA-256 of the invite link's token. */
  token_hash: string;
  role: AccountRole;
  created_by: string | null;
  expires_at: string;
  used_at: string | null;
  used_by: string | null;
  revoked_at: string | null;
  created_at: string;
}

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookDeliveryTable {
  id: string;
  org_id: string;
  call_id: string | null;
  url: string;
  /** The server message's `type` (`status-update`, `end-of-call-report`, `transcript`…). */
  message_type: string;
  /** The JSON body to POST. */
  payload: string;
  /** The `x-vapi-secret` to send, sealed; null for none. */
  sealed_secret: string | null;
  status: WebhookDeliveryStatus;
  attempts: Generated<number>;
  /** When to try next (pending only). */
  next_attempt_at: string | null;
  /** A process sending it holds it until then. */
  claimed_until: string | null;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookAttemptTable {
  id: string;
  delivery_id: string;
  attempt: number;
  /** The listener's HTTP status; null when no answer came (refused, timed out…). */
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  at: string;
}
