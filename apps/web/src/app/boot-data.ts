/**
 * The two answers every visitor page reads first (the client configuration and the product's
 * talk collection), sent by the server inside the page as a JSON data block, so the page
 * neither waits for them nor shows its texts twice (first without the business's name, then
 * with it). The server builds the block with `bootDataScript` (entry-server.tsx); a page
 * without it, or with one that does not check out, fetches both as before.
 */
import type { ClientConfig, TalkDocument } from '@talkbooth/protocol';
import { parseClientConfig, parseTalkCollection } from '../lib/wire-checks';

export const BOOT_DATA_ID = 'talkbooth-boot';

export interface BootData {
  config: ClientConfig;
  talkDocuments: TalkDocument[];
}

/** The page's boot data, checked as the fetched answers are; null when absent or malformed. */
export function readBootData(doc: Document = document): BootData | null {
  const text = doc.getElementById(BOOT_DATA_ID)?.textContent;
  if (!text) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof raw !== 'object' || raw === null) return null;
  const { config, talkDocuments } = raw as Record<string, unknown>;
  const checkedConfig = parseClientConfig(config);
  const checkedDocuments = parseTalkCollection(talkDocuments);
  return checkedConfig && checkedDocuments
    ? { config: checkedConfig, talkDocuments: checkedDocuments }
    : null;
}
