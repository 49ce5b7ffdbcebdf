import type { FastifyBaseLogger } from 'fastify';
import type { CallEnd, RecordMessage, StageProviders, TurnMetrics } from '@talkbooth/voice';
import type { CallRepository } from '../db/repositories/calls.js';
import type { CallRecording } from './call-recording.js';

/** The call's transcript in the hosted platform's form: `AI: …` and `User: …` lines. */
export function transcriptOf(messages: readonly RecordMessage[]): string {
  return messages
    .filter((m) => m.role !== 'system')
    .map((m) => `${m.role === 'bot' ? 'AI' : 'User'}: ${m.message}`)
    .join('\n');
}

export interface CallRecordWriterDeps {
  calls: CallRepository;
  now: () => Date;
  log: FastifyBaseLogger;
}

/**
 * The one place a running call writes its record: providers, the conversation as it
 * grows, each turn's latency, the ending and the recording. Writes are queued, so a later
 * one never lands before an earlier one, and a failed write is logged, never lost silently.
 */
export class CallRecordWriter {
  private writes: Promise<void> = Promise.resolve();
  private readonly turns: TurnMetrics[] = [];
  private ended = false;

  constructor(
    private readonly callId: string,
    private readonly deps: CallRecordWriterDeps,
  ) {}

  /** The turns written so far. */
  get turnCount(): number {
    return this.turns.length;
  }

  providers(providers: StageProviders): void {
    this.write({}, { providers });
  }

  conversation(messages: readonly RecordMessage[]): void {
    this.write({}, { messages, transcript: transcriptOf(messages) });
  }

  turn(metrics: TurnMetrics): void {
    this.turns.push(metrics);
    this.write({}, { latency: { turns: this.turns } });
  }

  /**
   * The ending (once): status, reason, summary, the brief, the last messages, why the
   * call broke when it did, and the recording with the link it is served at.
   */
  end(
    end: CallEnd,
    extra: { detail: string | null; recording: CallRecording | null; recordingUrl: string },
  ): void {
    if (this.ended) return;
    this.ended = true;
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
    if (extra.detail !== null) fields.endedDetail = extra.detail;
    const columns = { status: 'ended' as const, endedAt, endedReason: end.reason };
    const { recording } = extra;
    if (recording === null) return this.write(columns, fields);
    // The recording is stored first, so the ending (and the end-of-call report queued with
    // it) can carry its link; a recording that cannot be stored does not hold the ending up.
    this.queue(async () => {
      const now = this.deps.now();
      try {
        await this.deps.calls.saveRecording(this.callId, 'audio/wav', await recording.wav(), now);
        fields.recordingUrl = extra.recordingUrl;
      } catch (error) {
        this.deps.log.error({ err: error }, 'could not store the call recording');
      }
      await this.deps.calls.update(this.callId, columns, fields, now);
    });
  }

  /** Resolves once every write queued so far is stored (or has failed and been logged). */
  settled(): Promise<void> {
    return this.writes;
  }

  private write(
    columns: Parameters<CallRepository['update']>[1],
    fields: Record<string, unknown>,
  ): void {
    this.queue(() => this.deps.calls.update(this.callId, columns, fields, this.deps.now()));
  }

  private queue(write: () => Promise<unknown>): void {
    this.writes = this.writes
      .then(write)
      .then(() => undefined)
      .catch((error: unknown) =>
        this.deps.log.error({ err: error }, 'could not write the call record'),
      );
  }
}
