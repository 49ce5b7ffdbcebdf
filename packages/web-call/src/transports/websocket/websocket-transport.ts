import { ConnectionLostError, WebCallError } from '../../errors.js';
import { AUDIO_LEVEL_INTERVAL_MS } from '../../speech-detection.js';
import type { WorkletUrls } from '../../worklet-urls.js';
import {
  CAPTURE_PROCESSOR,
  PLAYBACK_PROCESSOR,
  type CaptureOptions,
  type PlaybackInMessage,
  type PlaybackOptions,
  type PlaybackOutMessage,
} from '../../worklets/worklet-protocol.js';
import {
  CALLER_AUDIO,
  CALLER_FRAME_SAMPLES,
  DEFAULT_ASSISTANT_SAMPLE_RATE,
  parseServerText,
  warnDropped,
} from '../messages.js';
import type {
  AudioContextConstructor,
  AudioContextLike,
  AudioNodeLike,
  AudioOutputPath,
  AudioWorkletNodeConstructor,
  AudioWorkletNodeLike,
  GetUserMedia,
  MediaStreamLike,
  MediaStreamTrackLike,
  NoiseCancellation,
  OutgoingMessage,
  Transport,
  TransportContext,
  WebSocketConstructor,
  WebSocketLike,
} from '../transport.js';
import { openLoopback, type Loopback, type LoopbackDeps } from './loopback.js';
import { openMicrophone } from './microphone.js';

/** The playback worklet's jitter buffer: start at 80 ms buffered (or after 80 ms), hold ≤ 5 s. */
export const PLAYBACK_BUFFER = {
  startMs: 80,
  maxWaitMs: 80,
  capacityMs: 5_000,
  levelWindowMs: 50,
} as const;

/** How long the server may take to accept the socket (it loads its speech engines first). */
const ACCEPT_TIMEOUT_MS = 30_000;
/** Past this much unsent data the socket is stalled: drop microphone frames, don't queue them. */
const MAX_BUFFERED_BYTES = 64_000;
const OPEN = 1;
/** After a socket error before the call is accepted, how long to wait for the close that says why. */
const SOCKET_ERROR_GRACE_MS = 1_000;

export interface WebSocketTransportDeps {
  getUserMedia: GetUserMedia | null;
  WebSocket: WebSocketConstructor | null;
  AudioContext: AudioContextConstructor | null;
  AudioWorkletNode: AudioWorkletNodeConstructor | null;
  workletUrls: WorkletUrls;
  /** The echo-cancellation loopback's browser parts; null plays directly. */
  loopback: LoopbackDeps | null;
  acceptTimeoutMs?: number;
}

type Phase = 'idle' | 'connecting' | 'connected' | 'closed';

/**
 * A call over Talkbooth's WebSocket: microphone frames up (PCM s16le, 16 kHz, 20 ms),
 * assistant audio down (PCM s16le at the announced rate) and JSON messages both ways.
 *
 * Audio graph: microphone → MediaStreamSource → capture worklet (→ 16 kHz frames → socket);
 * socket → playback worklet (jitter buffer, resampling to the context rate) → either the
 * echo-cancellation loopback (MediaStreamDestination → RTCPeerConnection pair → <audio>)
 * or the context's destination.
 */
export class WebSocketTransport implements Transport {
  readonly kind = 'websocket';
  private phase: Phase = 'idle';
  private muted = false;
  private nc: NoiseCancellation = 'none';
  private output: AudioOutputPath | null = null;

  private stream: MediaStreamLike | null = null;
  private track: MediaStreamTrackLike | null = null;
  private audio: AudioContextLike | null;
  private source: AudioNodeLike | null = null;
  private capture: AudioWorkletNodeLike | null = null;
  private playback: AudioWorkletNodeLike | null = null;
  private loopback: Loopback | null = null;
  private socket: WebSocketLike | null = null;

  private accepted = false;
  private acceptWaiter: { resolve(): void; reject(error: Error): void } | null = null;
  private playbackReady = false;
  private playableSent = false;
  private endedReason: string | undefined;
  private serverError: string | undefined;
  private levelTimer: ReturnType<typeof setInterval> | null = null;
  private levelSum = 0;
  private levelFrames = 0;
  private readonly silence = new Int16Array(CALLER_FRAME_SAMPLES);

  constructor(
    private readonly context: TransportContext,
    private readonly deps: WebSocketTransportDeps,
  ) {
    this.audio = context.audioContext;
  }

  get noiseCancellation(): NoiseCancellation {
    return this.nc;
  }

  get audioOutput(): AudioOutputPath | null {
    return this.output;
  }

  async connect(): Promise<void> {
    if (this.phase !== 'idle') throw new Error('connect() may be called once.');
    this.phase = 'connecting';
    try {
      const microphone = await openMicrophone(this.deps.getUserMedia);
      this.stream = microphone.stream;
      this.track = microphone.track;
      this.nc = microphone.noiseCancellation;
      this.track.enabled = !this.muted;
      this.checkStillConnecting();
      await this.openAudio();
      this.checkStillConnecting();
      await this.openOutput();
      this.checkStillConnecting();
      await this.openSocket();
      this.checkStillConnecting();
      this.phase = 'connected';
      this.levelTimer = setInterval(() => this.sampleLevel(), AUDIO_LEVEL_INTERVAL_MS);
      this.maybeSendPlayable();
    } catch (error) {
      this.release();
      this.phase = 'closed';
      throw error;
    }
  }

  send(message: OutgoingMessage): void {
    if (this.socket?.readyState === OPEN && this.accepted) {
      this.socket.send(JSON.stringify(message));
    }
  }

  setMuted(muted: boolean): void {
    this.muted = muted;
    if (this.track !== null) this.track.enabled = !muted;
  }

  isMuted(): boolean {
    return this.muted;
  }

  close(): Promise<void> {
    if (this.phase === 'closed') return Promise.resolve();
    this.phase = 'closed';
    this.acceptWaiter?.reject(new WebCallError('The call was stopped.', { kind: 'unknown' }));
    this.release();
    return Promise.resolve();
  }

  // ---- setting up ------------------------------------------------------------------------

  private checkStillConnecting(): void {
    if (this.phase !== 'connecting') {
      throw new WebCallError('The call was stopped while it was starting.', { kind: 'unknown' });
    }
  }

  private async openAudio(): Promise<void> {
    const { AudioContext, AudioWorkletNode, workletUrls } = this.deps;
    if (this.audio === null && AudioContext !== null) {
      this.audio = new AudioContext({ latencyHint: 'interactive' });
    }
    const audio = this.audio;
    if (audio === null || AudioWorkletNode === null) {
      throw new WebCallError('This browser cannot play the call audio (no Web Audio worklets).', {
        kind: 'audio',
      });
    }
    audio.onstatechange = () => this.maybeSendPlayable();
    if (audio.state === 'suspended') audio.resume().catch(() => undefined);
    try {
      await Promise.all([
        audio.audioWorklet.addModule(workletUrls.capture),
        audio.audioWorklet.addModule(workletUrls.playback),
      ]);
    } catch (error) {
      throw new WebCallError(
        `The call audio could not be set up: the audio worklets did not load from ${String(workletUrls.capture)} and ${String(workletUrls.playback)}.`,
        { kind: 'audio', cause: error },
      );
    }
    this.checkStillConnecting();
    try {
      const captureOptions: CaptureOptions = {
        targetRate: CALLER_AUDIO.sampleRate,
        frameSamples: CALLER_FRAME_SAMPLES,
      };
      this.capture = new AudioWorkletNode(audio, CAPTURE_PROCESSOR, {
        numberOfInputs: 1,
        numberOfOutputs: 0,
        channelCount: 1,
        channelCountMode: 'explicit',
        channelInterpretation: 'speakers',
        processorOptions: captureOptions,
      });
      this.capture.port.onmessage = (event: MessageEvent<Int16Array>) => this.sendFrame(event.data);
      const playbackOptions: PlaybackOptions = {
        sourceRate: DEFAULT_ASSISTANT_SAMPLE_RATE,
        ...PLAYBACK_BUFFER,
      };
      this.playback = new AudioWorkletNode(audio, PLAYBACK_PROCESSOR, {
        numberOfInputs: 0,
        numberOfOutputs: 1,
        outputChannelCount: [1],
        processorOptions: playbackOptions,
      });
      this.playback.port.onmessage = (event: MessageEvent<PlaybackOutMessage>) =>
        this.onPlaybackMessage(event.data);
      this.source = audio.createMediaStreamSource(this.stream as MediaStreamLike);
      this.source.connect(this.capture);
    } catch (error) {
      throw new WebCallError('The call audio could not be set up.', {
        kind: 'audio',
        cause: error,
      });
    }
  }

  private async openOutput(): Promise<void> {
    const audio = this.audio as AudioContextLike;
    const playback = this.playback as AudioWorkletNodeLike;
    if (this.deps.loopback !== null) {
      try {
        const destination = audio.createMediaStreamDestination();
        playback.connect(destination);
        const loopback = await openLoopback(destination.stream, this.deps.loopback);
        if (this.phase !== 'connecting') {
          loopback.close(); // stopped meanwhile
          return;
        }
        this.loopback = loopback;
        this.output = 'loopback';
        return;
      } catch (error) {
        console.warn(
          '[web-call] The echo-cancellation loopback could not be set up; playing directly.',
          error,
        );
        playback.disconnect();
      }
    }
    playback.connect(audio.destination);
    this.output = 'direct';
  }

  private openSocket(): Promise<void> {
    const { WebSocket } = this.deps;
    if (WebSocket === null) {
      return Promise.reject(
        new WebCallError('This browser has no WebSocket.', { kind: 'connection-refused' }),
      );
    }
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.acceptWaiter?.reject(
          new WebCallError('The call server did not answer in time. Start the call again.', {
            kind: 'connection-refused',
          }),
        );
      }, this.deps.acceptTimeoutMs ?? ACCEPT_TIMEOUT_MS);
      this.acceptWaiter = {
        resolve: () => {
          clearTimeout(timer);
          this.acceptWaiter = null;
          resolve();
        },
        reject: (error) => {
          clearTimeout(timer);
          this.acceptWaiter = null;
          reject(error);
        },
      };
      let socket: WebSocketLike;
      try {
        socket = new WebSocket(this.context.url);
      } catch (error) {
        this.acceptWaiter.reject(
          new WebCallError(`The call link is not usable: ${this.context.url}`, {
            kind: 'connection-refused',
            cause: error,
          }),
        );
        return;
      }
      this.socket = socket;
      socket.binaryType = 'arraybuffer';
      socket.onmessage = (event) => this.onSocketMessage(event);
      socket.onclose = (event) => this.onSocketClose(event);
      // An error is normally followed by a close, which says what happened. Not always:
      // Chrome reports a connection its CSP (connect-src) blocks with an error alone.
      socket.onerror = () => {
        if (this.accepted) return;
        setTimeout(() => {
          if (this.accepted || this.acceptWaiter === null) return;
          this.acceptWaiter.reject(
            new WebCallError(
              "Could not connect to the call server. Check your connection (and the page's connect-src policy) and start the call again.",
              { kind: 'connection-refused' },
            ),
          );
        }, SOCKET_ERROR_GRACE_MS);
      };
    });
  }

  // ---- the call --------------------------------------------------------------------------

  private onSocketMessage(event: MessageEvent): void {
    if (this.phase === 'closed') return;
    const data: unknown = event.data;
    if (typeof data !== 'string') {
      if (data instanceof ArrayBuffer) this.playAssistantAudio(data);
      return;
    }
    const parsed = parseServerText(data);
    if (parsed.kind === 'invalid') return warnDropped(data, parsed.reason);
    if (parsed.kind === 'listening') return this.context.handlers.listening();

    const message = parsed.message;
    switch (message.type) {
      case 'audio-format':
        this.postToPlayback({ type: 'format', sampleRate: message.sampleRate });
        break;
      case 'clear':
        this.postToPlayback({ type: 'clear' });
        break;
      case 'status-update':
        if (message.status === 'ended') this.endedReason = message.endedReason ?? 'unknown';
        break;
      case 'error':
        this.serverError = typeof message.error === 'string' ? message.error : 'Unknown error.';
        break;
    }
    this.context.handlers.message(message);
    if (message.type === 'audio-format' && !this.accepted) {
      this.accepted = true;
      this.acceptWaiter?.resolve();
    } else if (message.type === 'error' && this.accepted) {
      this.context.handlers.error(
        new WebCallError(this.serverError ?? 'The call server reported an error.', {
          kind: 'server',
        }),
      );
    }
  }

  private onSocketClose(event: CloseEvent): void {
    if (this.phase === 'closed') return;
    if (!this.accepted) {
      this.acceptWaiter?.reject(
        new WebCallError(this.serverError ?? refusedMessage(event), {
          kind: 'connection-refused',
          closeCode: event.code,
        }),
      );
      return;
    }
    this.phase = 'closed';
    this.release();
    const { handlers } = this.context;
    if (this.endedReason !== undefined) {
      handlers.closed({ endedReason: this.endedReason });
    } else if (this.serverError !== undefined) {
      // Already reported on `error` when it came; the close is its consequence.
      handlers.closed({});
    } else {
      handlers.closed({ error: new ConnectionLostError(undefined, { closeCode: event.code }) });
    }
  }

  private playAssistantAudio(data: ArrayBuffer): void {
    const count = Math.floor(data.byteLength / 2);
    if (count === 0) return;
    // PCM s16le: an Int16Array reads little-endian on every platform browsers run on.
    const samples = new Int16Array(data, 0, count);
    this.postToPlayback({ type: 'audio', samples }, [data]);
  }

  private postToPlayback(message: PlaybackInMessage, transfer: Transferable[] = []): void {
    this.playback?.port.postMessage(message, transfer);
  }

  private onPlaybackMessage(message: PlaybackOutMessage): void {
    switch (message.type) {
      case 'ready':
        this.playbackReady = true;
        this.maybeSendPlayable();
        break;
      case 'level':
        this.levelSum += message.sumSquares;
        this.levelFrames += message.frames;
        break;
      case 'cleared':
        break;
    }
  }

  /** One 20 ms microphone frame from the capture worklet. */
  private sendFrame(frame: Int16Array): void {
    const socket = this.socket;
    if (socket === null || socket.readyState !== OPEN || !this.accepted) return;
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) return;
    // Muted: the track is disabled (the browser gives silence) and silence is what is sent,
    // so the server still hears time pass and ends a turn that was cut off by the mute.
    socket.send(this.muted ? this.silence : frame);
  }

  /** Tells the server it can start speaking: the socket is accepted and audio can play. */
  private maybeSendPlayable(): void {
    if (this.playableSent || !this.accepted || !this.playbackReady || this.output === null) return;
    if (this.phase === 'closed' || this.audio === null) return;
    if (this.audio.state !== 'running') {
      if (this.audio.state === 'suspended') this.audio.resume().catch(() => undefined);
      return; // onstatechange brings us back
    }
    this.playableSent = true;
    this.send({ type: 'playable' });
  }

  /** Every 100 ms: the RMS of what the playback worklet output since the last sample. */
  private sampleLevel(): void {
    const level = this.levelFrames > 0 ? Math.sqrt(this.levelSum / this.levelFrames) : 0;
    this.levelSum = 0;
    this.levelFrames = 0;
    this.context.handlers.level(level);
  }

  // ---- tearing down ----------------------------------------------------------------------

  private release(): void {
    if (this.levelTimer !== null) clearInterval(this.levelTimer);
    this.levelTimer = null;
    const socket = this.socket;
    this.socket = null;
    if (socket !== null) {
      socket.onmessage = socket.onclose = socket.onerror = socket.onopen = null;
      try {
        socket.close(1000);
      } catch {
        // already closed
      }
    }
    if (this.capture !== null) {
      this.capture.port.onmessage = null;
      this.capture.port.close();
    }
    if (this.playback !== null) {
      this.playback.port.onmessage = null;
      this.playback.port.close();
    }
    for (const node of [this.source, this.capture, this.playback]) {
      try {
        node?.disconnect();
      } catch {
        // not connected
      }
    }
    this.source = this.capture = this.playback = null;
    this.loopback?.close();
    this.loopback = null;
    for (const track of this.stream?.getTracks() ?? []) track.stop();
    this.stream = null;
    this.track = null;
    const audio = this.audio;
    this.audio = null;
    if (audio !== null) {
      audio.onstatechange = null;
      if (audio.state !== 'closed') audio.close().catch(() => undefined);
    }
  }
}

function refusedMessage(event: CloseEvent): string {
  if (event.code === 1006 || event.code === 1015) {
    return 'Could not connect to the call server. Check your connection and start the call again.';
  }
  const reason = event.reason ? `: ${event.reason}` : '';
  return `The call server closed the connection before the call started (code ${event.code}${reason}).`;
}
