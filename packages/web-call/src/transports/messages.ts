import type {
  CALLER_AUDIO as PROTOCOL_CALLER_AUDIO,
  LISTENING as PROTOCOL_LISTENING,
  ServerMessage,
} from '@talkbooth/protocol';

/**
 * The bare string that means "the assistant is ready" (`LISTENING` in @talkbooth/protocol,
 * repeated here so the client does not load the protocol package's runtime and zod).
 */
export const LISTENING = 'listening' satisfies typeof PROTOCOL_LISTENING;

/** The caller's audio format on the WebSocket (`CALLER_AUDIO` in @talkbooth/protocol). */
export const CALLER_AUDIO = {
  encoding: 'pcm_s16le',
  sampleRate: 16_000,
  channels: 1,
  frameMs: 20,
  frameBytes: 640,
} as const satisfies typeof PROTOCOL_CALLER_AUDIO;

/** Samples in one 20 ms caller frame. */
export const CALLER_FRAME_SAMPLES = CALLER_AUDIO.frameBytes / 2;

/** The assistant's audio rate until the server's `audio-format` says otherwise. */
export const DEFAULT_ASSISTANT_SAMPLE_RATE = 22_050;

export type ParsedServerText =
  | { kind: 'listening' }
  | { kind: 'message'; message: ServerMessage }
  | { kind: 'invalid'; reason: string };

/** A text message from the server: `listening`, a JSON message, or something to drop. */
export function parseServerText(text: string): ParsedServerText {
  if (text === LISTENING) return { kind: 'listening' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { kind: 'invalid', reason: 'not JSON' };
  }
  return asServerMessage(parsed);
}

/** An already-parsed value (Daily app messages may arrive as objects). */
export function asServerMessage(value: unknown): ParsedServerText {
  if (value === LISTENING) return { kind: 'listening' };
  if (typeof value === 'string') return parseServerText(value);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { kind: 'invalid', reason: 'not a JSON object' };
  }
  if (typeof (value as { type?: unknown }).type !== 'string') {
    return { kind: 'invalid', reason: 'no type' };
  }
  // Trusted as far as its `type`: the server is ours (or the hosted platform), and the
  // client must not drag a schema library into the page to check every field.
  return { kind: 'message', message: value as ServerMessage };
}

/** Logs a dropped message without flooding the console with a huge one. */
export function warnDropped(raw: unknown, reason: string): void {
  const text = typeof raw === 'string' ? raw : String(raw);
  console.warn(
    `[web-call] Dropped a server message (${reason}):`,
    text.length > 200 ? `${text.slice(0, 200)}…` : text,
  );
}
