import type { DocumentRow } from '../db/repositories/documents.js';
import { jsonArray, type JsonAnswer } from '../http/json-answers.js';

/** Room for about 2 000 assistants of the demo's size (4 kB each, kept twice). */
export const DEFAULT_ANSWER_MEMO_BYTES = 16 * 1024 * 1024;

interface Entry<T> {
  row: DocumentRow;
  json: JsonAnswer<T>;
  bytes: number;
}

/**
 * The answer JSON of stored documents (an assistant as `GET /assistant` shows it), kept
 * with the row each was made from and given again while the row is exactly the same.
 *
 * A list answer is a pure function of its rows: unpacking (JSON.parse, opening the sealed
 * secrets), masking, checking against the response schema and JSON.stringify give the same
 * bytes for the same row every time. Redoing all of it for every document of every list is
 * what made a long list slow (the schema check alone cost more than SQLite). Here a row is
 * presented once: on a later list, a row whose every stored column (id, org, data, sealed
 * secrets, times) equals the remembered one gets the remembered bytes; any other row, a new
 * one, one changed in any way (by this process, another replica or by hand in SQL), is
 * presented and checked afresh, and replaces the entry. Nothing can go stale: the key is
 * the row's content, not a version the writers must remember to bump.
 *
 * What is kept is the answer, so secrets are held masked only (their sealed form is part
 * of the key), and a hit opens nothing. A row that fails the schema check is not kept: it
 * fails again on every list, as it does without the memo. Entries are dropped least
 * recently used first beyond `maxBytes`.
 */
export class AnswerMemo<T> {
  readonly #entries = new Map<string, Entry<T>>();
  #bytes = 0;

  /**
   * @param present The row's answer as JSON, checked against the response schema (throwing
   *   when it does not match): see `checkedJson`.
   */
  constructor(
    private readonly present: (row: DocumentRow) => JsonAnswer<T>,
    private readonly maxBytes = DEFAULT_ANSWER_MEMO_BYTES,
  ) {}

  /** The JSON array of the rows' answers: the bytes JSON.stringify(rows.map(present)) gives. */
  list(rows: readonly DocumentRow[]): JsonAnswer<T[]> {
    return jsonArray(rows.map((row) => this.one(row)));
  }

  /** One row's answer. */
  one(row: DocumentRow): JsonAnswer<T> {
    const kept = this.#entries.get(row.id);
    if (kept !== undefined && sameRow(kept.row, row)) {
      // Most recently used last: the Map's order is the eviction order.
      this.#entries.delete(row.id);
      this.#entries.set(row.id, kept);
      return kept.json;
    }
    const json = this.present(row);
    this.#remember(row, json, kept);
    return json;
  }

  /** How many rows and bytes are kept (for tests and diagnostics). */
  get size(): { entries: number; bytes: number } {
    return { entries: this.#entries.size, bytes: this.#bytes };
  }

  #remember(row: DocumentRow, json: JsonAnswer<T>, replaced: Entry<T> | undefined): void {
    if (replaced !== undefined) {
      this.#entries.delete(row.id);
      this.#bytes -= replaced.bytes;
    }
    // A copy of the stored columns only: the caller's row object may carry more.
    const key: DocumentRow = {
      id: row.id,
      org_id: row.org_id,
      data: row.data,
      secrets: row.secrets,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
    // Strings counted as one byte per character: close enough for a bound.
    const bytes =
      json.length +
      key.id.length +
      key.org_id.length +
      key.data.length +
      (key.secrets?.length ?? 0) +
      key.created_at.length +
      key.updated_at.length;
    if (bytes > this.maxBytes) return;
    this.#entries.set(row.id, { row: key, json, bytes });
    this.#bytes += bytes;
    for (const [id, entry] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#entries.delete(id);
      this.#bytes -= entry.bytes;
    }
  }
}

/** Every stored column equal (the id is the entry's key). */
function sameRow(a: DocumentRow, b: DocumentRow): boolean {
  return (
    a.data === b.data &&
    a.secrets === b.secrets &&
    a.updated_at === b.updated_at &&
    a.created_at === b.created_at &&
    a.org_id === b.org_id
  );
}
