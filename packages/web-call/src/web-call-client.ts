import { EventEmitter } from 'eventemitter3';
import type { AssistantDto, Call, ClientMessage, ServerMessage } from '@talkbooth/protocol';
import { browserGetUserMedia, browserGlobals } from './browser.js';
import { WebCallError, asWebCallError } from './errors.js';
import { createWebCall, type FetchLike } from './http.js';
import { SpeechDetector } from './speech-detection.js';
import type { DailyLoader } from './transports/daily/daily-types.js';
import type { ParticipantAudioElement } from './transports/daily/daily-transport.js';
import type {
  AudioContextConstructor,
  AudioContextLike,
  AudioOutputPath,
  AudioWorkletNodeConstructor,
  GetUserMedia,
  MediaStreamLike,
  MediaStreamTrackLike,
  NoiseCancellation,
  Transport,
  TransportContext,
  TransportFactory,
  TransportHandlers,
  TransportKind,
  WebSocketConstructor,
} from './transports/transport.js';
import type {
  AudioElementLike,
  LoopbackDeps,
  RtcPeerConnectionLike,
} from './transports/websocket/loopback.js';
import { WebSocketTransport } from './transports/websocket/websocket-transport.js';
import { workletUrls } from './worklet-urls.js';

/** Per-call changes to the assistant; `variableValues` fill its `{{name}}` templates. */
export type AssistantOverrides = AssistantDto & { variableValues?: Record<string, unknown> };

/** Extra fields of the call to create. */
export interface StartCallOptions {
  /** Stored with the call (`metadata` of `POST /call/web`). */
  metadata?: Record<string, unknown>;
}

/** What `call-end` says about the ending. */
export interface CallEndInfo {
  /**
   * The server's endedReason (its `status-update` ended) when it sent one; after `stop()`
   * without one, `customer-ended-call` (what the server records); undefined when the
   * connection was lost.
   */
  endedReason?: string;
}

/** The client's events (the hosted SDK's names and payloads). */
export interface WebCallEvents {
  /** The assistant is ready and listening (the server's `listening`). */
  'call-start': () => void;
  /** The call is over, for whatever reason; once per call. */
  'call-end': (info: CallEndInfo) => void;
  /** The assistant started speaking (its audio level went above 0.01). */
  'speech-start': () => void;
  /** The assistant stopped speaking (1000 ms without a level above 0.01). */
  'speech-end': () => void;
  /** The assistant's loudness, 0..1 (level / 0.15, capped), every 100 ms during a call. */
  'volume-level': (volume: number) => void;
  /** Every JSON message from the server (transcripts, status updates, …). */
  message: (message: ServerMessage) => void;
  /** Something failed; a WebCallError (ConnectionLostError when the connection dropped). */
  error: (error: Error) => void;
}

export interface WebCallClientOptions {
  /** `fetch` for `POST /call/web` (default: the global one). */
  fetch?: FetchLike;
  /** Makes the transport for a call (tests); default: by the webCallUrl's scheme. */
  transportFactory?: TransportFactory;
  /** Where the audio worklet modules are served (default: next to this module, as bundled). */
  workletBaseUrl?: string | URL;
  /** getUserMedia (tests); default: `navigator.mediaDevices.getUserMedia`. */
  getUserMedia?: GetUserMedia;
  /**
   * Play the assistant through a local RTCPeerConnection loopback so that Chrome's echo
   * canceller hears it (default true). Falls back to direct playback if it cannot be set up.
   */
  echoCancellationLoopback?: boolean;
  /** Browser constructors (tests inject fakes); default: the globals. */
  WebSocket?: WebSocketConstructor;
  AudioContext?: AudioContextConstructor;
  AudioWorkletNode?: AudioWorkletNodeConstructor;
  RTCPeerConnection?: new (configuration?: RTCConfiguration) => RtcPeerConnectionLike;
  MediaStream?: new (tracks: MediaStreamTrackLike[]) => MediaStreamLike;
  /** Makes <audio> elements (tests); default: document.createElement('audio'). */
  createAudioElement?: () => ParticipantAudioElement & AudioElementLike;
  /** Loads daily-js for hosted-platform calls (tests pass a fake); default: dynamic import. */
  loadDaily?: DailyLoader;
}

interface Session {
  readonly abort: AbortController;
  readonly speech: SpeechDetector;
  audioContext: AudioContextLike | null;
  transport: Transport | null;
  speechTimer: ReturnType<typeof setTimeout> | null;
  endedReason: string | undefined;
  /** stop() was called. */
  stopped: boolean;
  /** call-end was emitted (or the start failed): nothing more is reported. */
  ended: boolean;
}

/**
 * The browser web-call client, with the hosted platform's web SDK surface:
 *
 * ```ts
 * const client = new WebCallClient(publicKey, '/platform');
 * client.on('call-start', …); client.on('message', …); client.on('call-end', …);
 * await client.start(assistantId);
 * ```
 *
 * A Talkbooth server answers `POST /call/web` with a `ws(s):` link (our WebSocket
 * transport); the hosted platform with a Daily room (`https:`), joined with daily-js, which
 * is loaded only then.
 */
export class WebCallClient extends EventEmitter<WebCallEvents> {
  private session: Session | null = null;
  private readonly fetchImpl: FetchLike;

  constructor(
    private readonly publicKey: string,
    private readonly baseUrl = 'https://api.vapi.ai',
    private readonly options: WebCallClientOptions = {},
  ) {
    super();
    this.fetchImpl =
      options.fetch ?? ((input, init) => globalThis.fetch.call(globalThis, input, init));
  }

  /** Which noise cancellation works on the microphone ('none' without a call). */
  get noiseCancellation(): NoiseCancellation {
    return this.session?.transport?.noiseCancellation ?? 'none';
  }

  /** How the assistant is played (null without a connected call). */
  get audioOutput(): AudioOutputPath | null {
    return this.session?.transport?.audioOutput ?? null;
  }

  /** The current call's transport (null without a call). */
  get transportKind(): TransportKind | null {
    return this.session?.transport?.kind ?? null;
  }

  /**
   * Starts a call with a stored assistant (its id) or an inline one. Resolves with the
   * created call once connected; resolves null when a call is already started, or when
   * starting failed (after emitting `error` and releasing everything).
   */
  async start(
    assistantOrId: string | AssistantDto,
    assistantOverrides?: AssistantOverrides,
    options: StartCallOptions = {},
  ): Promise<Call | null> {
    if (this.session !== null) return null;
    const session: Session = {
      abort: new AbortController(),
      speech: new SpeechDetector(),
      audioContext: null,
      transport: null,
      speechTimer: null,
      endedReason: undefined,
      stopped: false,
      ended: false,
    };
    this.session = session;
    try {
      const body = requestBody(assistantOrId, assistantOverrides, options);
      // Made now, while start() still runs in the click that called it: browsers that
      // want a gesture for audio (Safari) accept this one, not one made after the request.
      session.audioContext = this.primeAudioContext();
      const call = await createWebCall(
        this.fetchImpl,
        this.baseUrl,
        this.publicKey,
        body,
        session.abort.signal,
      );
      this.assertActive(session);
      const context: TransportContext = {
        url: call.webCallUrl,
        call,
        handlers: this.handlersFor(session),
        audioContext: session.audioContext,
      };
      const factory = this.options.transportFactory ?? ((c) => this.defaultTransport(c));
      session.transport = await factory(context);
      this.assertActive(session);
      await session.transport.connect();
      this.assertActive(session);
      return call;
    } catch (error) {
      if (session.stopped || session.ended) return null;
      session.ended = true;
      await this.releaseSession(session);
      this.emitSafe('error', asWebCallError(error, 'The call could not start'));
      return null;
    }
  }

  /** Hangs up: closes the connection and releases the microphone and audio. */
  async stop(): Promise<void> {
    const session = this.session;
    if (session === null) return;
    session.stopped = true;
    session.abort.abort();
    await this.endSession(session, session.endedReason ?? 'customer-ended-call');
  }

  /** Asks the server to end the call (`control` end-call), then hangs up. */
  async end(): Promise<void> {
    this.send({ type: 'control', control: 'end-call' });
    await this.stop();
  }

  /** Sends a message to the server (add-message, control, say). Dropped without a call. */
  send(message: ClientMessage): void {
    this.session?.transport?.send(message);
  }

  /** Has the assistant say something, and optionally hang up afterwards. */
  say(message: string, endCallAfterSpoken?: boolean): void {
    this.send({
      type: 'say',
      message,
      ...(endCallAfterSpoken === undefined ? {} : { endCallAfterSpoken }),
    });
  }

  /** Mutes (or unmutes) the microphone. Throws without a call. */
  setMuted(muted: boolean): void {
    const transport = this.session?.transport;
    if (transport == null) throw new Error('Call object is not available.');
    transport.setMuted(muted);
  }

  isMuted(): boolean {
    return this.session?.transport?.isMuted() ?? false;
  }

  // ---- internals -------------------------------------------------------------------------

  private assertActive(session: Session): void {
    if (session.stopped || session.ended || this.session !== session) {
      throw new WebCallError('The call was stopped while it was starting.', { kind: 'unknown' });
    }
  }

  private handlersFor(session: Session): TransportHandlers {
    const live = () => !session.ended && this.session === session;
    return {
      listening: () => {
        if (live()) this.emitSafe('call-start');
      },
      message: (message) => {
        if (!live()) return;
        if (message.type === 'status-update' && message.status === 'ended') {
          session.endedReason = message.endedReason ?? session.endedReason;
        }
        this.emitSafe('message', message);
      },
      level: (level) => {
        if (live()) this.onLevel(session, level);
      },
      error: (error) => {
        if (live()) this.emitSafe('error', error);
      },
      closed: (info) => {
        if (!live()) return;
        if (info.error !== undefined) this.emitSafe('error', info.error);
        void this.endSession(session, info.endedReason ?? session.endedReason);
      },
    };
  }

  private onLevel(session: Session, level: number): void {
    const result = session.speech.sample(level, Date.now());
    this.emitSafe('volume-level', result.volume);
    if (result.speechEnd) this.emitSafe('speech-end');
    if (result.speechStart) this.emitSafe('speech-start');
    if (session.speechTimer !== null) clearTimeout(session.speechTimer);
    session.speechTimer = null;
    const due = session.speech.speechEndDueAt;
    if (due === null) return;
    session.speechTimer = setTimeout(
      () => {
        session.speechTimer = null;
        if (!session.ended && session.speech.expire(Date.now())) this.emitSafe('speech-end');
      },
      Math.max(0, due - Date.now()),
    );
  }

  /** Ends a call once: speech-end if speaking, releases everything, then call-end. */
  private async endSession(session: Session, endedReason: string | undefined): Promise<void> {
    if (session.ended) return;
    session.ended = true;
    const wasSpeaking = session.speech.reset();
    const released = this.releaseSession(session);
    if (wasSpeaking) this.emitSafe('speech-end');
    this.emitSafe('call-end', endedReason === undefined ? {} : { endedReason });
    await released;
  }

  private async releaseSession(session: Session): Promise<void> {
    if (this.session === session) this.session = null;
    if (session.speechTimer !== null) clearTimeout(session.speechTimer);
    session.speechTimer = null;
    const transport = session.transport;
    const audioContext = session.audioContext;
    session.audioContext = null;
    try {
      await transport?.close();
    } catch (error) {
      console.warn('[web-call] Closing the call failed:', error);
    }
    // The transport owns the primed context, but one that never got a transport (or a
    // custom one that ignored it) must not stay open.
    if (audioContext !== null && audioContext.state !== 'closed') {
      audioContext.close().catch(() => undefined);
    }
  }

  private primeAudioContext(): AudioContextLike | null {
    const AudioContext =
      this.options.AudioContext ??
      browserGlobals().AudioContext ??
      browserGlobals().webkitAudioContext;
    if (AudioContext === undefined) return null;
    try {
      const context = new AudioContext({ latencyHint: 'interactive' });
      if (context.state === 'suspended') context.resume().catch(() => undefined);
      return context;
    } catch (error) {
      console.warn('[web-call] Could not create an AudioContext:', error);
      return null;
    }
  }

  /** Our WebSocket for `ws:`/`wss:` links, a Daily room for `https:` links. */
  private async defaultTransport(context: TransportContext): Promise<Transport> {
    const protocol = protocolOf(context.url);
    const browser = browserGlobals();
    const options = this.options;
    const MediaStream = options.MediaStream ?? browser.MediaStream;
    const createAudioElement =
      options.createAudioElement ??
      (browser.document === undefined ? undefined : () => document.createElement('audio'));

    if (protocol === 'ws:' || protocol === 'wss:') {
      const RTCPeerConnection = options.RTCPeerConnection ?? browser.RTCPeerConnection;
      const loopback: LoopbackDeps | null =
        options.echoCancellationLoopback !== false &&
        RTCPeerConnection !== undefined &&
        MediaStream !== undefined &&
        createAudioElement !== undefined
          ? { RTCPeerConnection, MediaStream, createAudioElement }
          : null;
      return new WebSocketTransport(context, {
        getUserMedia: options.getUserMedia ?? browserGetUserMedia(),
        WebSocket: options.WebSocket ?? browser.WebSocket ?? null,
        AudioContext: options.AudioContext ?? browser.AudioContext ?? null,
        AudioWorkletNode: options.AudioWorkletNode ?? browser.AudioWorkletNode ?? null,
        workletUrls: workletUrls(options.workletBaseUrl),
        loopback,
      });
    }
    if (protocol === 'https:') {
      // Daily plays through its own elements: the primed AudioContext is not needed.
      context.audioContext?.close().catch(() => undefined);
      const daily = await import('./transports/daily/daily-transport.js');
      if (MediaStream === undefined) {
        throw new WebCallError('This browser cannot play a Daily call (no MediaStream).', {
          kind: 'audio',
        });
      }
      return new daily.DailyTransport(
        { ...context, audioContext: null },
        {
          loadDaily: options.loadDaily ?? daily.loadDaily,
          createAudioElement: options.createAudioElement ?? daily.createBodyAudioElement,
          MediaStream,
        },
      );
    }
    throw new WebCallError(`The server gave a call link this client cannot join: ${context.url}`, {
      kind: 'network',
    });
  }

  /** Emits without letting a listener's exception break the call's bookkeeping. */
  private emitSafe<E extends keyof WebCallEvents>(
    event: E,
    ...args: Parameters<WebCallEvents[E]>
  ): void {
    // eventemitter3's emit() cannot relate a generic event name to its arguments; the
    // signature of this method does that check instead.
    const emit = this.emit.bind(this) as (event: E, ...args: unknown[]) => boolean;
    try {
      emit(event, ...args);
    } catch (error) {
      console.error(`[web-call] A '${event}' listener threw:`, error);
    }
  }
}

function requestBody(
  assistantOrId: string | AssistantDto,
  assistantOverrides: AssistantOverrides | undefined,
  options: StartCallOptions,
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (typeof assistantOrId === 'string' && assistantOrId.trim() !== '') {
    body.assistantId = assistantOrId;
  } else if (
    typeof assistantOrId === 'object' &&
    assistantOrId !== null &&
    !Array.isArray(assistantOrId)
  ) {
    body.assistant = assistantOrId;
  } else {
    throw new WebCallError('Give an assistant id or an assistant to start a call.', {
      kind: 'unknown',
    });
  }
  if (assistantOverrides !== undefined) body.assistantOverrides = assistantOverrides;
  if (options.metadata !== undefined) body.metadata = options.metadata;
  return body;
}

function protocolOf(url: string): string | null {
  try {
    return new URL(url).protocol;
  } catch {
    return null;
  }
}
