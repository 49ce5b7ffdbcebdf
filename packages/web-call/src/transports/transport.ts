import type { Call, ServerMessage } from '@talkbooth/protocol';

/** Which noise cancellation works on the caller's microphone. */
export type NoiseCancellation =
  /**
   * The Talkbooth server's (RNNoise, on every WebSocket call), the browser's turned off: two
   * suppressors in a row garble speech for the recogniser.
   */
  | 'server'
  /**
   * The browser's own (getUserMedia `noiseSuppression`), on a WebSocket call whose browser
   * kept it on although asked not to; the server's works after it.
   */
  | 'browser'
  /** Daily's noise-cancellation processor (Krisp), Daily rooms. */
  | 'krisp'
  | 'none';

/** How the assistant's voice reaches the speakers. */
export type AudioOutputPath =
  /**
   * Playback worklet → local RTCPeerConnection pair → <audio> element: the voice is a
   * WebRTC track, which Chrome's echo canceller uses as its reference.
   */
  | 'loopback'
  /** Playback worklet → AudioContext destination (no echo-canceller reference in Chrome). */
  | 'direct'
  /** WebRTC tracks from the Daily room, one <audio> element per participant. */
  | 'daily';

export type TransportKind = 'websocket' | 'daily';

/** How a transport's call ended. */
export interface TransportClosed {
  /** The ending the server announced (status-update ended), if it did. */
  endedReason?: string;
  /** Set when the call ended because something failed (reported on `error`, then call-end). */
  error?: Error;
}

/** What a transport reports to the client. */
export interface TransportHandlers {
  /** The assistant is ready (`listening`): the client's `call-start`. */
  listening(): void;
  /** A JSON message from the server, parsed. */
  message(message: ServerMessage): void;
  /** The assistant's audio level, 0..1, every 100 ms while connected. */
  level(level: number): void;
  /** A problem that does not end the call by itself. */
  error(error: Error): void;
  /** The call is over (not called after `close()`). At most once. */
  closed(info: TransportClosed): void;
}

/** A message for the server: a JSON-able object, or a bare string (Daily's `playable`). */
export type OutgoingMessage = object;

/** One call's connection and media. */
export interface Transport {
  readonly kind: TransportKind;
  /** Which noise cancellation is on (may change shortly after connect for Daily). */
  readonly noiseCancellation: NoiseCancellation;
  /** How the assistant is played; null until known. */
  readonly audioOutput: AudioOutputPath | null;
  /** Joins: microphone, audio, connection. Rejects (after cleaning up) when it cannot. */
  connect(): Promise<void>;
  /** Sends a JSON message; dropped when not connected. */
  send(message: OutgoingMessage): void;
  setMuted(muted: boolean): void;
  isMuted(): boolean;
  /** Leaves and releases everything. Idempotent; `closed` is not reported afterwards. */
  close(): Promise<void>;
}

/** What a transport factory gets. */
export interface TransportContext {
  /** The call's `webCallUrl`. */
  url: string;
  call: Call;
  handlers: TransportHandlers;
  /**
   * An AudioContext created (and resumed) by `start()` while it still ran in the user's
   * gesture, for transports that play through Web Audio; null when none could be made.
   * A transport that does not use it must close it.
   */
  audioContext: AudioContextLike | null;
}

export type TransportFactory = (context: TransportContext) => Transport | Promise<Transport>;

// ---- the browser surfaces the transports use (real ones fit; tests pass fakes) ----------

export interface MediaStreamTrackLike {
  readonly kind: string;
  enabled: boolean;
  stop(): void;
  getSettings(): MediaTrackSettings;
}

export interface MediaStreamLike {
  getTracks(): MediaStreamTrackLike[];
  getAudioTracks(): MediaStreamTrackLike[];
}

export type GetUserMedia = (constraints: MediaStreamConstraints) => Promise<MediaStreamLike>;

export interface AudioNodeLike {
  connect(destination: AudioNodeLike): unknown;
  disconnect(): void;
}

export interface MessagePortLike {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  onmessage: ((event: MessageEvent) => void) | null;
  close(): void;
}

export interface AudioWorkletNodeLike extends AudioNodeLike {
  readonly port: MessagePortLike;
}

export interface MediaStreamAudioDestinationNodeLike extends AudioNodeLike {
  readonly stream: MediaStreamLike;
}

export interface AudioContextLike {
  readonly state: AudioContextState;
  readonly sampleRate: number;
  readonly destination: AudioNodeLike;
  readonly audioWorklet: { addModule(url: string | URL): Promise<void> };
  onstatechange: ((event: Event) => void) | null;
  resume(): Promise<void>;
  close(): Promise<void>;
  createMediaStreamSource(stream: MediaStreamLike): AudioNodeLike;
  createMediaStreamDestination(): MediaStreamAudioDestinationNodeLike;
}

export type AudioContextConstructor = new (options?: AudioContextOptions) => AudioContextLike;

export type AudioWorkletNodeConstructor = new (
  context: AudioContextLike,
  name: string,
  options?: AudioWorkletNodeOptions,
) => AudioWorkletNodeLike;

export interface WebSocketLike {
  binaryType: BinaryType;
  readonly readyState: number;
  readonly bufferedAmount: number;
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  send(data: string | ArrayBufferLike | ArrayBufferView): void;
  close(code?: number, reason?: string): void;
}

export type WebSocketConstructor = new (url: string) => WebSocketLike;
