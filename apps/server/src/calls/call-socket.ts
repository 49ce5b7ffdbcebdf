import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import {
  clientMessageSchema,
  LISTENING,
  type AssistantDto,
  type Call,
  type ServerMessage,
} from '@talkbooth/protocol';
import {
  CallSession,
  createReplyEngine,
  effectiveAssistant,
  FRAME_SAMPLES,
  FrameSplitter,
  LocalReplyEngine,
  vocabularyFor,
  type CallEnd,
  type RecordMessage,
  type TurnMetrics,
} from '@talkbooth/voice';
import type { AssistantRepository } from '../db/repositories/assistants.js';
import type { CallRepository } from '../db/repositories/calls.js';
import type { CallMetrics } from '../observability/call-metrics.js';
import { SHARED_STORE_MESSAGE } from '../scale-out/messages.js';
import type { WorkerPresence } from '../scale-out/worker-presence.js';
import type { CredentialRepository } from '../db/repositories/credentials.js';
import { publicOrigin } from '../http/public-address.js';
import { DRAINING_MESSAGE, type ServerLifecycle } from '../lifecycle.js';
import type { OutboundFetch } from '../security/outbound.js';
import { AudioPacer } from './audio-pacer.js';
import { admissionMessage, type CallAdmission } from './call-admission.js';
import { credentialsForCall } from './call-credentials.js';
import type { CallLeases } from './call-leases.js';
import { CallRecording } from './call-recording.js';
import { chooseSpeechProviders, type CallProviders } from './providers.js';
import type { LiveCalls } from './live-calls.js';
import type { VoiceEngines } from './voice-engines.js';

export interface CallSocketDeps {
  calls: CallRepository;
  assistants: AssistantRepository;
  credentials: CredentialRepository;
  engines: VoiceEngines;
  live: LiveCalls;
  admission: CallAdmission;
  leases: CallLeases;
  lifecycle: ServerLifecycle;
  /** Requests to user-given URLs (a custom-llm endpoint) go through this. */
  outboundFetch: OutboundFetch;
  /** PUBLIC_URL, for the recording link. */
  publicUrl: string | undefined;
  /** Counts calls, their ends and turns, and times each turn's stages (GET /metrics). */
  metrics: CallMetrics;
  /** ROLE=voice: this worker in the registry, told of each call it takes and ends. */
  presence?: WorkerPresence | undefined;
  now: () => Date;
}

/** Close codes for a socket refused before the call starts (4000–4999 are the application's). */
const CLOSE = {
  normal: 1000,
  invalidToken: 4401,
  alreadyUsed: 4409,
  expired: 4410,
  badData: 4400,
  busy: 4429,
  failed: 4500,
  unavailable: 4503,
} as const;

/** The socket's message size limit (ws closes the socket with 1009 beyond it). */
export const MAX_SOCKET_MESSAGE_BYTES = 64 * 1024;

/** Up to a second of audio per binary message: more is not a frame, it is a mistake. */
const MAX_AUDIO_MESSAGE_BYTES = 32_000;
/** Caller audio is 16 kHz: samples per millisecond. */
const SAMPLES_PER_MS = 16;
/** Start speaking after the client says it can play audio, or after this long anyway. */
const PLAYABLE_WAIT_MS = 3_000;

/**
 * The web-call socket at `/ws/call/:id?token=…`: checks the single-use token, runs one
 * CallSession for the call, and writes the call record as the call goes (status and
 * times, every completed turn, per-turn latency, the ending, an optional recording).
 */
export function registerCallSocket(app: FastifyInstance, deps: CallSocketDeps): void {
  app.get('/ws/call/:id', { websocket: true }, (socket: WebSocket, request: FastifyRequest) => {
    void acceptCall(socket, request, deps).catch((error: unknown) => {
      request.log.error({ err: error }, 'call socket failed');
      refuse(socket, CLOSE.failed, 'The call could not start because of a server error.');
    });
  });
}

/** Holds a place for the call, or refuses the socket; true when the call may go on. */
function takePlace(socket: WebSocket, id: string, deps: CallSocketDeps): boolean {
  // The place was taken when the call was created; a call created by another process
  // (or whose hold ran out at the link's last moment) takes one now.
  if (deps.admission.connected(id)) return true;
  const refusal = deps.admission.admit(id, null, null);
  if (refusal === null) return true;
  refuse(socket, CLOSE.busy, admissionMessage(refusal));
  return false;
}

async function acceptCall(
  socket: WebSocket,
  request: FastifyRequest,
  deps: CallSocketDeps,
): Promise<void> {
  const { id } = request.params as { id: string };
  const { token } = request.query as { token?: string };
  const log = request.log.child({ callId: id });
  if (deps.lifecycle.draining) return refuse(socket, CLOSE.unavailable, DRAINING_MESSAGE);

  const redeemed =
    token === undefined
      ? { problem: 'unknown' as const }
      : await deps.calls.redeemJoinToken(token, deps.now());
  if ('problem' in redeemed || redeemed.callId !== id) {
    const problem = 'problem' in redeemed ? redeemed.problem : 'unknown';
    log.info({ problem }, 'call socket refused');
    if (problem === 'used') {
      return refuse(
        socket,
        CLOSE.alreadyUsed,
        'This call link was already used: the call is connected elsewhere, or over.',
      );
    }
    if (problem === 'expired') {
      return refuse(
        socket,
        CLOSE.expired,
        'This call link has expired (links work for 60 seconds). Start the call again.',
      );
    }
    return refuse(socket, CLOSE.invalidToken, 'This call link is not valid.');
  }
  const call = await deps.calls.getById(id);
  if (call === undefined || call.status !== 'queued') {
    return refuse(socket, CLOSE.alreadyUsed, 'This call has already started or ended.');
  }
  if (!takePlace(socket, id, deps)) return;
  if (deps.presence !== undefined) {
    try {
      await deps.presence.hold(id);
    } catch (error) {
      log.error({ err: error }, 'call refused: the worker registry (Redis) does not answer');
      deps.admission.release(id);
      return refuse(socket, CLOSE.unavailable, SHARED_STORE_MESSAGE);
    }
  }
  // Started under this process's lease; conditional, so a call the sweep ended is not revived.
  if (!(await deps.calls.markStarted(id, deps.leases.lease(), deps.now()))) {
    deps.admission.release(id);
    deps.presence?.release(id);
    return refuse(socket, CLOSE.alreadyUsed, 'This call has already started or ended.');
  }
  await new CallConnection(socket, request, call, deps, log).run();
}

/** Sends an error the client can show, then closes. */
function refuse(socket: WebSocket, code: number, message: string): void {
  if (socket.readyState !== socket.OPEN) return;
  send(socket, { type: 'error', error: message });
  socket.close(code, message.slice(0, 120));
}

function send(socket: WebSocket, message: ServerMessage | typeof LISTENING): void {
  if (socket.readyState === socket.OPEN)
    socket.send(typeof message === 'string' ? message : JSON.stringify(message));
}

/** One connected call: the socket, its session, and the writes to its record. */
class CallConnection {
  private session: CallSession | null = null;
  private readonly frames = new FrameSplitter(FRAME_SAMPLES);
  private readonly pacer = new AudioPacer();
  /** Why the client's data ended the call (a protocol error), when it did. */
  private protocolError: string | null = null;
  private ended = false;
  private recording: CallRecording | null = null;
  private readonly turns: TurnMetrics[] = [];
  /** Record writes in order, so a later write never lands before an earlier one. */
  private writes: Promise<void> = Promise.resolve();
  private endedDetail: string | null = null;
  private closed = false;

  constructor(
    private readonly socket: WebSocket,
    private readonly request: FastifyRequest,
    private readonly call: Call,
    private readonly deps: CallSocketDeps,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Serves the call until it ends; any failure ends it with a reason, never silently. */
  async run(): Promise<void> {
    this.deps.leases.hold(this.call.id, () => {
      this.log.error('another process ended this call (its lease ran out): ending it here');
      if (this.session !== null) void this.session.end('unknown-error');
    });
    // The caller may have hung up while the call was being looked up.
    if (this.socket.readyState !== this.socket.OPEN) this.closed = true;
    this.socket.on('close', () => this.onClose());
    this.socket.on('error', (error) => this.onSocketError(error));
    this.socket.on('message', (data, isBinary) => this.onMessage(data as Buffer, isBinary));
    try {
      await this.setUp();
    } catch (error) {
      this.log.error({ err: error }, 'call failed to start');
      this.fail('The call could not start because of a server error.');
    }
  }

  private async setUp(): Promise<void> {
    const { deps, call } = this;
    const base = await this.assistantOf(call);
    if (base === undefined) return this.fail('The assistant of this call no longer exists.');
    const { assistant, variableValues } = effectiveAssistant(base, call.assistantOverrides);
    const speech = chooseSpeechProviders(assistant);
    const credentials = await credentialsForCall(deps.credentials, call.orgId, {
      modelUrl: assistant.model?.url,
      // Only a stored assistant's URL is the organisation's; an inline one came with the call.
      storedModelUrl: call.assistant === undefined ? base.model?.url : undefined,
    });
    if (credentials.withheld !== undefined) this.log.warn(credentials.withheld);
    const { engine, fallbackReason } = createReplyEngine(assistant, {
      variableValues,
      credentials: (p) => credentials.keys.get(p),
      fetch: deps.outboundFetch,
    });
    const providers: CallProviders = {
      ...speech,
      model: {
        requested: assistant.model?.provider ?? 'local',
        used: engine.provider,
        ...(fallbackReason === undefined ? {} : { reason: fallbackReason }),
        ...(credentials.withheld === undefined ? {} : { note: credentials.withheld }),
      },
    };

    const [synthesizer, recognizer, vad, denoiser] = await Promise.all([
      deps.engines.synthesizer(),
      deps.engines.recognizer(vocabularyFor(assistant)),
      deps.engines.vad(),
      deps.engines.denoiser(),
    ]);
    if (this.closed || this.ended) {
      vad.dispose();
      denoiser.dispose();
      if (this.ended) return;
      return this.persistEnd({
        reason: this.protocolError === null ? 'customer-ended-call' : 'customer-sent-invalid-data',
        conclusion: { summary: '' },
        messages: [],
      });
    }
    if (assistant.recordingEnabled === true)
      this.recording = new CallRecording(synthesizer.sampleRate);

    this.session = new CallSession(
      {
        recognizer,
        vad,
        denoiser,
        synthesizer,
        voice: providers.voice.voiceId,
        reply: engine,
        fallbackReply: () => new LocalReplyEngine({ assistant, variableValues }),
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
          if (this.socket.readyState === this.socket.OPEN) this.socket.send(chunk);
        },
        message: (message) => send(this.socket, message),
        conversation: (messages) =>
          this.write({}, { messages, transcript: transcriptOf(messages) }),
        metrics: (metrics) => {
          this.turns.push(metrics);
          this.deps.metrics.turn(metrics);
          this.log.info({ ...metrics }, 'turn latency');
          this.write({}, { latency: { turns: this.turns } });
        },
        providerChanged: (change) => {
          this.log.warn({ ...change }, 'reply provider fell back');
          providers.model = {
            requested: providers.model.requested,
            used: change.to,
            reason: change.reason,
          };
          this.write({}, { providers });
        },
        ended: (end) => {
          vad.dispose();
          denoiser.dispose();
          this.persistEnd(end);
        },
      },
    );
    const live = this.session;
    this.deps.live.add(call.id, { end: (reason) => live.end(reason), settled: () => this.writes });
    this.deps.metrics.callStarted();
    this.write({}, { providers });
    this.log.info({ providers }, 'call started');

    send(this.socket, {
      type: 'audio-format',
      encoding: 'pcm_s16le',
      sampleRate: synthesizer.sampleRate,
      channels: 1,
    });
    send(this.socket, LISTENING);
    // Speak once the client can play audio (it sends `playable`), or soon anyway.
    const session = this.session;
    setTimeout(() => session.start(), PLAYABLE_WAIT_MS).unref();
  }

  private onMessage(data: Buffer, isBinary: boolean): void {
    if (this.ended) return;
    if (isBinary) {
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
      return;
    }
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
    send(this.socket, { type: 'error', error: detail });
    if (this.session !== null) void this.session.end(reason);
    else this.persistEnd({ reason, conclusion: { summary: '' }, messages: [] });
  }

  /** ws reports a message over the size limit (then closes with 1009) or a broken frame. */
  private onSocketError(error: Error): void {
    const tooLarge =
      (error as Error & { code?: string }).code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH';
    this.protocolError = tooLarge
      ? `A message was larger than the socket's ${MAX_SOCKET_MESSAGE_BYTES / 1024} KiB limit; the connection was closed. Send audio as 20 ms frames (640 bytes).`
      : `The connection broke: ${error.message}`;
    this.endedDetail = this.protocolError;
    this.log.warn({ err: error }, 'call socket error');
  }

  private onClose(): void {
    this.closed = true;
    // A dropped socket is the caller hanging up, unless the client broke the protocol.
    const reason =
      this.protocolError === null ? 'customer-ended-call' : 'customer-sent-invalid-data';
    if (this.session !== null && !this.session.ended) void this.session.end(reason);
  }

  private fail(detail: string): void {
    this.endedDetail = detail;
    send(this.socket, { type: 'error', error: detail });
    this.persistEnd({ reason: 'assistant-error', conclusion: { summary: '' }, messages: [] });
  }

  /** Writes the ending (once), then closes the socket. */
  private persistEnd(end: CallEnd): void {
    if (this.ended) return;
    this.ended = true;
    this.deps.live.remove(this.call.id);
    this.deps.leases.drop(this.call.id);
    this.deps.admission.release(this.call.id);
    this.deps.presence?.release(this.call.id);
    this.deps.metrics.callEnded(end.reason);
    const endedAt = this.deps.now().toISOString();
    const fields: Record<string, unknown> = {
      summary: end.conclusion.summary,
      analysis: {
        summary: end.conclusion.summary,
        structuredData: end.conclusion.structuredData ?? {},
      },
    };
    if (end.messages.length > 0) {
      fields.messages = end.messages;
      fields.transcript = transcriptOf(end.messages);
    }
    if (this.endedDetail !== null) fields.endedDetail = this.endedDetail;
    this.write({ status: 'ended', endedAt, endedReason: end.reason }, fields);
    const recording = this.recording;
    if (recording !== null) {
      const url = `${publicOrigin(this.request, this.deps.publicUrl)}/platform/call/${this.call.id}/recording`;
      this.writes = this.writes.then(async () => {
        const now = this.deps.now();
        await this.deps.calls.saveRecording(this.call.id, 'audio/wav', await recording.wav(), now);
        await this.deps.calls.update(this.call.id, {}, { recordingUrl: url }, now);
      });
    }
    this.log.info({ endedReason: end.reason, turns: this.turns.length }, 'call ended');
    void this.writes.finally(() => {
      if (this.socket.readyState === this.socket.OPEN) this.socket.close(CLOSE.normal, end.reason);
    });
  }

  private write(
    columns: Parameters<CallRepository['update']>[1],
    fields: Record<string, unknown>,
  ): void {
    this.writes = this.writes
      .then(() => this.deps.calls.update(this.call.id, columns, fields, this.deps.now()))
      .catch((error: unknown) => this.log.error({ err: error }, 'could not write the call record'));
  }

  private async assistantOf(call: Call): Promise<AssistantDto | undefined> {
    if (call.assistant !== undefined) return call.assistant;
    if (call.assistantId === undefined) return undefined;
    return (await this.deps.assistants.get(call.orgId, call.assistantId))?.body;
  }
}

/** The call's transcript in the hosted platform's form: `AI: …` and `User: …` lines. */
export function transcriptOf(messages: readonly RecordMessage[]): string {
  return messages
    .filter((m) => m.role !== 'system')
    .map((m) => `${m.role === 'bot' ? 'AI' : 'User'}: ${m.message}`)
    .join('\n');
}
