import type { FastifyBaseLogger } from 'fastify';
import { clientMessageSchema, LISTENING, type Call, type ServerMessage } from '@talkbooth/protocol';
import {
  CallSession,
  FRAME_SAMPLES,
  FrameSplitter,
  type CallEnd,
  type EndedReason,
} from '@talkbooth/voice';
import type { CallRepository } from '../db/repositories/calls.js';
import type { CallMetrics } from '../observability/call-metrics.js';
import type { WorkerPresence } from '../scale-out/worker-presence.js';
import { AudioPacer } from './audio-pacer.js';
import type { CallAdmission } from './call-admission.js';
import type { CallLeases } from './call-leases.js';
import { CallRecordWriter } from './call-record-writer.js';
import { CallRecording } from './call-recording.js';
import { prepareCall, type CallStagesDeps } from './call-stages.js';
import { CLOSE } from './close-codes.js';
import type { LiveCalls } from './live-calls.js';

/** Up to a second of audio per binary message: more is not a frame, it is a mistake. */
export const MAX_AUDIO_MESSAGE_BYTES = 32_000;
/** Caller audio is 16 kHz: samples per millisecond. */
const SAMPLES_PER_MS = 16;
/** Start speaking after the client says it can play audio, or after this long anyway. */
const PLAYABLE_WAIT_MS = 3_000;

/** Where a call's events go: the caller's connection, whatever carries it. */
export interface CallOutput {
  /** Whether the caller can still be reached. */
  readonly open: boolean;
  /** Assistant audio, 16-bit PCM at the rate the `audio-format` message named. */
  audio(chunk: Int16Array): void;
  message(message: ServerMessage | typeof LISTENING): void;
  /** The call is over and its record written: close the connection. */
  close(code: number, reason: string): void;
}

export interface CallRunnerDeps extends CallStagesDeps {
  calls: CallRepository;
  live: LiveCalls;
  admission: CallAdmission;
  leases: CallLeases;
  /** Counts calls, their ends and turns, and times each turn's stages (GET /metrics). */
  metrics: CallMetrics;
  /** ROLE=voice: this worker in the registry, told of each call it ends. */
  presence?: WorkerPresence | undefined;
  now: () => Date;
}

/**
 * Runs one started call: caller audio frames and client messages in, the session's
 * audio and messages out, and every change written to the call record through one
 * writer. It knows nothing of sockets, so the same runner serves a browser on this
 * process or a call relayed to a voice worker.
 */
export class CallRunner {
  private session: CallSession | null = null;
  private readonly frames = new FrameSplitter(FRAME_SAMPLES);
  private readonly pacer = new AudioPacer();
  private readonly record: CallRecordWriter;
  /** Why the client's data ended the call (a protocol error), when it did. */
  private protocolError: string | null = null;
  private endedDetail: string | null = null;
  private recording: CallRecording | null = null;
  private ended = false;
  private hungUp = false;

  constructor(
    private readonly call: Call,
    private readonly output: CallOutput,
    private readonly deps: CallRunnerDeps,
    private readonly log: FastifyBaseLogger,
    /** The link the recording will be served at. */
    private readonly recordingUrl: string,
  ) {
    this.record = new CallRecordWriter(call.id, { calls: deps.calls, now: deps.now, log });
  }

  /** Sets the call up and starts it; any failure ends it with a reason, never silently. */
  async run(): Promise<void> {
    this.deps.leases.hold(this.call.id, () => {
      this.log.error('another process ended this call (its lease ran out): ending it here');
      if (this.session !== null) void this.session.end('unknown-error');
    });
    // The caller may have hung up while the call was being looked up.
    if (!this.output.open) this.hungUp = true;
    try {
      await this.setUp();
    } catch (error) {
      this.log.error({ err: error }, 'call failed to start');
      this.fail('The call could not start because of a server error.');
    }
  }

  /** One message from the caller: a binary audio frame, or a JSON control message. */
  receive(data: Buffer, isBinary: boolean): void {
    if (this.ended) return;
    if (isBinary) return this.receiveAudio(data);
    let parsed: unknown;
    try {
      parsed = JSON.parse(data.toString('utf8'));
    } catch {
      return this.badData('A text message must be JSON, like {"type":"playable"}.');
    }
    const message = clientMessageSchema.safeParse(parsed);
    if (!message.success) {
      return this.badData(
        `This message is not understood: ${message.error.issues[0]?.message ?? 'invalid'}`,
      );
    }
    this.session?.handleClientMessage(message.data);
  }

  /** The connection broke because of the client (a message too large, a broken frame). */
  protocolBroken(detail: string): void {
    this.protocolError = detail;
    this.endedDetail = detail;
  }

  /** The caller's connection closed: they hung up, unless the client broke the protocol. */
  hangUp(): void {
    this.hungUp = true;
    const reason =
      this.protocolError === null ? 'customer-ended-call' : 'customer-sent-invalid-data';
    if (this.session !== null && !this.session.ended) void this.session.end(reason);
  }

  private async setUp(): Promise<void> {
    const { deps, call } = this;
    const prepared = await prepareCall(call, deps, this.log);
    if (prepared === undefined) return this.fail('The assistant of this call no longer exists.');
    const { assistant, stages } = prepared;
    const { providers, synthesizer } = stages;
    const freePerCall = () => {
      stages.vad.dispose();
      stages.denoiser.dispose();
    };
    if (this.hungUp || this.ended) {
      freePerCall();
      if (this.ended) return;
      return this.persistEnd({
        reason: this.protocolError === null ? 'customer-ended-call' : 'customer-sent-invalid-data',
        conclusion: { summary: '' },
        messages: [],
      });
    }
    if (assistant.recordingEnabled === true)
      this.recording = new CallRecording(synthesizer.sampleRate);

    const session = new CallSession(
      {
        recognizer: stages.recognizer,
        vad: stages.vad,
        denoiser: stages.denoiser,
        synthesizer,
        voice: stages.voiceId,
        reply: stages.reply,
        fallbackReply: stages.fallbackReply,
      },
      {
        systemPrompt: assistant.model?.messages?.find((m) => m.role === 'system')?.content,
        silenceTimeoutSeconds: assistant.silenceTimeoutSeconds,
        maxDurationSeconds: assistant.maxDurationSeconds ?? call.maxDurationSeconds,
        endCallPhrases: assistant.endCallPhrases,
        endCallMessage: assistant.endCallMessage,
        numWordsToInterruptAssistant: assistant.numWordsToInterruptAssistant,
      },
      {
        audio: (chunk) => {
          this.recording?.addAssistant(chunk);
          this.output.audio(chunk);
        },
        message: (message) => this.output.message(message),
        conversation: (messages) => this.record.conversation(messages),
        metrics: (metrics) => {
          this.deps.metrics.turn(metrics);
          this.log.info({ ...metrics }, 'turn latency');
          this.record.turn(metrics);
        },
        providerChanged: (change) => {
          this.log.warn({ ...change }, 'reply provider fell back');
          providers.model = {
            requested: providers.model.requested,
            used: change.to,
            reason: change.reason,
          };
          this.record.providers(providers);
        },
        problem: (problem) => {
          this.log.warn({ ...problem }, 'a check the call went on without failed');
        },
        ended: (end) => {
          freePerCall();
          this.persistEnd(end);
        },
      },
    );
    this.session = session;
    this.deps.live.add(call.id, {
      end: (reason: EndedReason) => session.end(reason),
      settled: () => this.record.settled(),
      control: (message) => session.handleClientMessage(message),
    });
    this.deps.metrics.callStarted();
    this.record.providers(providers);
    this.log.info({ providers }, 'call started');

    this.output.message({
      type: 'audio-format',
      encoding: 'pcm_s16le',
      sampleRate: synthesizer.sampleRate,
      channels: 1,
    });
    this.output.message(LISTENING);
    // Speak once the client can play audio (it sends `playable`), or soon anyway.
    setTimeout(() => session.start(), PLAYABLE_WAIT_MS).unref();
  }

  private receiveAudio(data: Buffer): void {
    if (data.length === 0 || data.length % 2 !== 0 || data.length > MAX_AUDIO_MESSAGE_BYTES) {
      return this.badData(
        `An audio message must hold 16-bit PCM samples: an even number of bytes, at most ${MAX_AUDIO_MESSAGE_BYTES} (got ${data.length}).`,
      );
    }
    // At most real time plus a small lead: a faster sender would stall every other call.
    const verdict = this.pacer.take(data.length / 2 / SAMPLES_PER_MS);
    if (verdict === 'drop') return;
    if (verdict === 'too-fast') return this.tooFast();
    const samples = new Int16Array(data.length / 2);
    for (let i = 0; i < samples.length; i += 1) samples[i] = data.readInt16LE(i * 2);
    for (const frame of this.frames.push(samples)) {
      this.recording?.addCaller(frame);
      this.session?.pushCallerAudio(frame);
    }
  }

  /** Malformed input from the client: tell it why, and end the call with the reason. */
  private badData(detail: string): void {
    this.log.warn({ detail }, 'malformed client data');
    this.endBecauseOfClient('customer-sent-invalid-data', detail);
  }

  /** The client sends audio faster than any microphone: end the call before it hurts others. */
  private tooFast(): void {
    const detail = `This client sent audio faster than real time (${(this.pacer.droppedMs / 1000).toFixed(1)} s more than a microphone makes), so the call was ended. Send one 20 ms frame every 20 ms.`;
    this.log.warn({ droppedMs: this.pacer.droppedMs }, 'caller audio faster than real time');
    this.endBecauseOfClient('customer-sent-audio-too-fast', detail);
  }

  private endBecauseOfClient(reason: CallEnd['reason'], detail: string): void {
    if (this.ended) return;
    this.endedDetail = detail;
    this.output.message({ type: 'error', error: detail });
    if (this.session !== null) void this.session.end(reason);
    else this.persistEnd({ reason, conclusion: { summary: '' }, messages: [] });
  }

  private fail(detail: string): void {
    this.endedDetail = detail;
    this.output.message({ type: 'error', error: detail });
    this.persistEnd({ reason: 'assistant-error', conclusion: { summary: '' }, messages: [] });
  }

  /** Gives back the call's place, writes the ending (once), then closes the connection. */
  private persistEnd(end: CallEnd): void {
    if (this.ended) return;
    this.ended = true;
    const { id } = this.call;
    this.deps.live.remove(id);
    this.deps.leases.drop(id);
    this.deps.admission.release(id);
    this.deps.presence?.release(id);
    this.deps.metrics.callEnded(end.reason);
    this.record.end(end, {
      detail: this.endedDetail,
      recording: this.recording,
      recordingUrl: this.recordingUrl,
    });
    this.log.info({ endedReason: end.reason, turns: this.record.turnCount }, 'call ended');
    void this.record.settled().then(() => {
      if (this.output.open) this.output.close(CLOSE.normal, end.reason);
    });
  }
}
