import { z } from 'zod';

/**
 * The web-call wire protocol on the WebSocket at a call's `webCallUrl`.
 * Up, binary: the caller's microphone as PCM s16le, mono, 16 kHz, 20 ms (640 bytes) per frame.
 * Down, binary: the assistant's voice as PCM s16le mono at the announced rate.
 * Both ways, JSON text messages with the hosted platform's client-message names.
 */
export const CALLER_AUDIO = {
  encoding: 'pcm_s16le',
  sampleRate: 16_000,
  channels: 1,
  frameMs: 20,
  frameBytes: 640,
} as const;

/** Sent first: the format of the assistant audio that follows. */
export interface AudioFormatMessage {
  type: 'audio-format';
  encoding: 'pcm_s16le';
  sampleRate: number;
  channels: 1;
}

export type Role = 'user' | 'assistant';

export interface TranscriptMessage {
  type: 'transcript';
  role: Role;
  transcriptType: 'partial' | 'final';
  transcript: string;
}

export interface SpeechUpdateMessage {
  type: 'speech-update';
  role: Role;
  status: 'started' | 'stopped';
}

export interface ConversationUpdateMessage {
  type: 'conversation-update';
  conversation: { role: 'system' | 'user' | 'assistant'; content: string }[];
}

export interface ModelOutputMessage {
  type: 'model-output';
  output: string;
}

export interface StatusUpdateMessage {
  type: 'status-update';
  status: 'in-progress' | 'ended';
  endedReason?: string;
}

/** The assistant hung up (after its last words were played). */
export interface HangMessage {
  type: 'hang';
}

/** Barge-in: drop every queued sample of assistant audio now. */
export interface ClearMessage {
  type: 'clear';
}

/** Something the client sent could not be used; the text says what and what happens next. */
export interface ErrorMessage {
  type: 'error';
  error: string;
}

/** Every JSON message the server sends; plus the bare string `listening` when the assistant is ready. */
export type ServerMessage =
  | AudioFormatMessage
  | TranscriptMessage
  | SpeechUpdateMessage
  | ConversationUpdateMessage
  | ModelOutputMessage
  | StatusUpdateMessage
  | HangMessage
  | ClearMessage
  | ErrorMessage;

/** The string message that means "the assistant is ready" (the client's call-start). */
export const LISTENING = 'listening';

/** Messages the client may send. */
export const clientMessageSchema = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('playable') }),
    z.object({
      type: z.literal('add-message'),
      message: z.object({
        role: z.enum(['system', 'user', 'assistant']),
        content: z.string().max(10_000),
      }),
    }),
    z.object({
      type: z.literal('control'),
      control: z.enum(['mute-assistant', 'unmute-assistant', 'end-call']),
    }),
    z.object({
      type: z.literal('say'),
      message: z.string().min(1).max(2_000),
      endCallAfterSpoken: z.boolean().optional(),
    }),
  ],
  { error: 'Unknown message type: use playable, add-message, control or say.' },
);
export type ClientMessage = z.infer<typeof clientMessageSchema>;
