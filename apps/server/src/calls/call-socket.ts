import path from 'node:path';
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
import type { CredentialRepository } from '../db/repositories/credentials.js';
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
  recordingsDir: string;
  now: () => Date;
}

/** Close codes for a socket refused before the call starts (4000–4999 are the application's). */
const CLOSE = {
  normal: 1000,
  invalidToken: 4401,
  alreadyUsed: 4409,
  expired: 4410,
  badData: 4400,
  failed: 4500,
} as const;

/** Up to a second of audio per binary message: more is not a frame, it is a mistake. */
const MAX_AUDIO_MESSAGE_BYTES = 32_000;
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

async function acceptCall(
  socket: WebSocket,
  request: FastifyRequest,
  deps: CallSocketDeps,
): Promise<void> {
  const { id } = request.params as { id: string };
  const { token } = request.query as { token?: string };
  const log = request.log.child({ callId: id });

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

  async run(): Promise<void> {
    const { deps, call } = this;
    const startedAt = deps.now().toISOString();
    this.write({ status: 'in-progress', startedAt }, {});
    this.socket.on('close', () => this.onClose());
    this.socket.on('message', (data, isBinary) => this.onMessage(data as Buffer, isBinary));

    const base = await this.assistantOf(call);
    if (base === undefined) return this.fail('The assistant of this call no longer exists.');
    const { assistant, variableValues } = effectiveAssistant(base, call.assistantOverrides);
    const speech = chooseSpeechProviders(assistant);
    const credentials = await this.credentialsOf(call.orgId);
    const { engine, fallbackReason } = createReplyEngine(assistant, {
      variableValues,
      credentials: (p) => credentials.get(p),
    });
    const providers: CallProviders = {
      ...speech,
      model: {
        requested: assistant.model?.provider ?? 'local',
        used: engine.provider,
        ...(fallbackReason === undefined ? {} : { reason: fallbackReason }),
      },
    };

    const [synthesizer, recognizer, vad, denoiser] = await Promise.all([
      deps.engines.synthesizer(),
      deps.engines.recognizer(vocabularyFor(assistant)),
      deps.engines.vad(),
      deps.engines.denoiser(),
    ]);
    if (this.closed) {
      vad.dispose();
      denoiser.dispose();
      return this.persistEnd({
        reason: 'customer-ended-call',
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
    if (isBinary) {
      if (data.length === 0 || data.length % 2 !== 0 || data.length > MAX_AUDIO_MESSAGE_BYTES) {
        return this.badData(
          `An audio message must hold 16-bit PCM samples: an even number of bytes, at most ${MAX_AUDIO_MESSAGE_BYTES} (got ${data.length}).`,
        );
      }
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
    this.endedDetail = detail;
    send(this.socket, { type: 'error', error: detail });
    if (this.session !== null) void this.session.end('unknown-error');
    else this.persistEnd({ reason: 'unknown-error', conclusion: { summary: '' }, messages: [] });
  }

  private onClose(): void {
    this.closed = true;
    // A dropped socket is the caller hanging up.
    if (this.session !== null && !this.session.ended) void this.session.end('customer-ended-call');
  }

  private fail(detail: string): void {
    this.endedDetail = detail;
    send(this.socket, { type: 'error', error: detail });
    this.persistEnd({ reason: 'assistant-error', conclusion: { summary: '' }, messages: [] });
  }

  /** Writes the ending (once), then closes the socket. */
  private persistEnd(end: CallEnd): void {
    if (this.session !== null) this.deps.live.remove(this.call.id);
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
      const file = path.join(this.deps.recordingsDir, `${this.call.id}.wav`);
      const url = `${this.request.protocol}://${this.request.host}/platform/call/${this.call.id}/recording`;
      this.writes = this.writes.then(async () => {
        await recording.save(file);
        await this.deps.calls.update(this.call.id, {}, { recordingUrl: url }, this.deps.now());
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

  private async credentialsOf(orgId: string): Promise<Map<string, string>> {
    const keys = new Map<string, string>();
    for (const credential of await this.deps.credentials.newestByProvider(orgId)) {
      const key = credential.body.apiKey;
      if (typeof key === 'string') keys.set(credential.body.provider, key);
    }
    return keys;
  }
}

/** The call's transcript in the hosted platform's form: `AI: …` and `User: …` lines. */
export function transcriptOf(messages: readonly RecordMessage[]): string {
  return messages
    .filter((m) => m.role !== 'system')
    .map((m) => `${m.role === 'bot' ? 'AI' : 'User'}: ${m.message}`)
    .join('\n');
}
