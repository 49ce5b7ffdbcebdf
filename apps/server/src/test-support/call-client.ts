import type { ServerMessage } from '@talkbooth/protocol';
import {
  applyGain,
  CALLER_SAMPLE_RATE,
  FRAME_SAMPLES,
  mix,
  Resampler,
  whiteNoise,
} from '@talkbooth/voice';
import WebSocket from 'ws';
import { NOISE_FLOOR_DBFS } from './speech-audio.js';

export interface ReceivedMessage {
  at: number;
  message: ServerMessage | string;
}

export interface CallClientOptions {
  /** Mix the assistant's audio back into the microphone this many dB down (an echo). */
  echoDb?: number;
}

/**
 * A caller on the web-call wire protocol, in Node: it streams a microphone in real time
 * (20 ms frames every 20 ms: speech when asked to speak, a quiet noise floor otherwise),
 * plays nothing but keeps what the assistant sends, and records every message with its
 * arrival time.
 */
export class CallClient {
  readonly messages: ReceivedMessage[] = [];
  readonly audio: { at: number; samples: Int16Array }[] = [];
  sampleRate = 0;
  closeCode: number | null = null;
  closeReason = '';
  private readonly speechQueue: Int16Array[] = [];
  private speechDone: (() => void)[] = [];
  private micTimer: ReturnType<typeof setTimeout> | null = null;
  private echo: Int16Array[] = [];
  private resampler: Resampler | null = null;
  private noiseSeed = 1;
  private readonly waiters = new Set<() => void>();
  private readonly closed: Promise<void>;

  private constructor(
    readonly socket: WebSocket,
    private readonly options: CallClientOptions,
  ) {
    socket.on('message', (data, isBinary) => this.receive(data as Buffer, isBinary));
    this.closed = new Promise((resolve) =>
      socket.on('close', (code, reason) => {
        this.closeCode = code;
        this.closeReason = reason.toString();
        this.stopMic();
        this.notify();
        resolve();
      }),
    );
  }

  static async connect(url: string, options: CallClientOptions = {}): Promise<CallClient> {
    const socket = new WebSocket(url);
    const client = new CallClient(socket, options);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return client;
  }

  /** Says the client can play audio, and starts the microphone. */
  startMicrophone(): void {
    this.sendJson({ type: 'playable' });
    let next = performance.now();
    const tick = () => {
      if (this.socket.readyState !== WebSocket.OPEN) return;
      this.socket.send(Buffer.from(this.nextFrame().buffer));
      next += 20;
      this.micTimer = setTimeout(tick, Math.max(0, next - performance.now()));
    };
    tick();
  }

  stopMic(): void {
    if (this.micTimer !== null) clearTimeout(this.micTimer);
    this.micTimer = null;
  }

  /** Speaks `samples` (16 kHz) into the microphone in real time; resolves when all is sent. */
  speak(samples: Int16Array): Promise<void> {
    for (let offset = 0; offset < samples.length; offset += FRAME_SAMPLES) {
      const frame = new Int16Array(FRAME_SAMPLES);
      frame.set(samples.subarray(offset, offset + FRAME_SAMPLES));
      this.speechQueue.push(frame);
    }
    return new Promise((resolve) => this.speechDone.push(resolve));
  }

  sendJson(message: unknown): void {
    this.socket.send(JSON.stringify(message));
  }

  /** The JSON messages received, without the audio-format and plain-string ones. */
  json(): ServerMessage[] {
    return this.messages.flatMap(({ message }) => (typeof message === 'string' ? [] : [message]));
  }

  /** Waits until `predicate` holds over what has been received (or the socket closes). */
  async waitFor<T>(
    predicate: () => T | undefined | false,
    timeoutMs = 20_000,
    what = 'the expected message',
  ): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = predicate();
      if (value !== undefined && value !== false) return value;
      if (Date.now() > deadline || this.closeCode !== null) {
        const seen = this.json()
          .filter(
            (m) =>
              m.type === 'transcript' ||
              m.type === 'status-update' ||
              m.type === 'error' ||
              m.type === 'clear',
          )
          .slice(-25)
          .map((m) => JSON.stringify(m).slice(0, 200))
          .join('\n  ');
        throw new Error(
          `timed out waiting for ${what}${this.closeCode !== null ? ` (socket closed ${this.closeCode} ${this.closeReason})` : ''}; received:\n  ${seen}`,
        );
      }
      await new Promise<void>((resolve) => {
        const done = () => {
          this.waiters.delete(done);
          resolve();
        };
        this.waiters.add(done);
        setTimeout(done, 50);
      });
    }
  }

  /** The first message of `type` (optionally matching) received after index `from`. */
  find<T extends ServerMessage['type']>(
    type: T,
    match: (m: Extract<ServerMessage, { type: T }>) => boolean = () => true,
    from = 0,
  ) {
    for (const { message } of this.messages.slice(from)) {
      if (
        typeof message !== 'string' &&
        message.type === type &&
        match(message as Extract<ServerMessage, { type: T }>)
      ) {
        return message as Extract<ServerMessage, { type: T }>;
      }
    }
    return undefined;
  }

  /** Waits for the assistant's next final sentence that contains `text` (case-insensitive). */
  heard(text: string, from = 0, timeoutMs = 20_000): Promise<string> {
    return this.waitFor(
      () =>
        this.find(
          'transcript',
          (m) => m.role === 'assistant' && m.transcript.toLowerCase().includes(text.toLowerCase()),
          from,
        )?.transcript,
      timeoutMs,
      `the assistant to say "${text}"`,
    );
  }

  /** Milliseconds of assistant audio received. */
  audioMs(): number {
    const samples = this.audio.reduce((sum, chunk) => sum + chunk.samples.length, 0);
    return this.sampleRate === 0 ? 0 : (samples * 1000) / this.sampleRate;
  }

  async close(): Promise<void> {
    this.stopMic();
    if (this.socket.readyState === WebSocket.OPEN) this.socket.close(1000);
    await this.closed;
  }

  /** Cuts the connection without a closing handshake (a dropped network). */
  drop(): void {
    this.stopMic();
    this.socket.terminate();
  }

  whenClosed(): Promise<void> {
    return this.closed;
  }

  private nextFrame(): Int16Array {
    let frame = this.speechQueue.shift();
    if (frame === undefined) {
      for (const resolve of this.speechDone.splice(0)) resolve();
      frame = whiteNoise(FRAME_SAMPLES, NOISE_FLOOR_DBFS, (this.noiseSeed += 1));
    }
    const echo = this.takeEcho();
    return echo === null ? frame : mix(frame, echo).subarray(0, FRAME_SAMPLES);
  }

  private takeEcho(): Int16Array | null {
    if (this.options.echoDb === undefined || this.echo.length === 0) return null;
    const out = new Int16Array(FRAME_SAMPLES);
    let filled = 0;
    while (filled < FRAME_SAMPLES && this.echo.length > 0) {
      const head = this.echo[0]!;
      const take = Math.min(head.length, FRAME_SAMPLES - filled);
      out.set(head.subarray(0, take), filled);
      filled += take;
      if (take === head.length) this.echo.shift();
      else this.echo[0] = head.subarray(take);
    }
    return applyGain(out, this.options.echoDb);
  }

  private receive(data: Buffer, isBinary: boolean): void {
    const at = performance.now();
    if (isBinary) {
      const samples = new Int16Array(data.length / 2);
      for (let i = 0; i < samples.length; i += 1) samples[i] = data.readInt16LE(i * 2);
      this.audio.push({ at, samples });
      if (this.options.echoDb !== undefined && this.resampler !== null)
        this.echo.push(this.resampler.process(samples));
    } else {
      const text = data.toString('utf8');
      let message: ServerMessage | string = text;
      try {
        message = JSON.parse(text) as ServerMessage;
      } catch {
        // `listening` is a bare string.
      }
      if (typeof message !== 'string' && message.type === 'audio-format') {
        this.sampleRate = message.sampleRate;
        if (this.options.echoDb !== undefined) {
          void Resampler.create(message.sampleRate, CALLER_SAMPLE_RATE).then(
            (r) => (this.resampler = r),
          );
        }
      }
      if (typeof message !== 'string' && message.type === 'clear') this.echo = [];
      this.messages.push({ at, message });
    }
    this.notify();
  }

  private notify(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}
