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
}

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
  /** The whole assistant definition (platform field names) as JSON. */
  data: string;
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
