import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { TurnMetrics } from '@talkbooth/voice';

/** Seconds buckets for the waits a caller hears: fine below a second, coarse above. */
const LATENCY_BUCKETS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 5, 10];

/** What the process reads at scrape time (live calls, places), not counted as it goes. */
export interface CallGauges {
  liveCalls: () => number;
  placesTaken: () => number;
  /** MAX_LIVE_CALLS; null on an API process, which runs no calls (its workers' capacity is reported instead). */
  capacity: number | null;
}

/**
 * The process's Prometheus metrics, in a registry of its own (several servers may share a
 * process in tests): calls started and ended by reason, turns, per-stage and
 * voice-to-voice latency, live calls against capacity, and Node's own process metrics
 * (CPU, memory, event-loop lag) under the `talkbooth_` prefix.
 */
export class CallMetrics {
  readonly registry = new Registry();
  private readonly started: Counter;
  private readonly ended: Counter<'reason'>;
  private readonly turns: Counter<'recognition_model'>;
  private readonly relayErrors: Counter<'kind'>;
  private readonly stages: Record<
    'voiceToVoice' | 'endOfSpeech' | 'recognition' | 'firstText' | 'firstAudio',
    Histogram
  >;

  constructor(gauges: CallGauges) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'talkbooth_' });
    this.started = new Counter({
      name: 'talkbooth_calls_started_total',
      help: 'Calls this process started serving.',
      registers,
    });
    this.ended = new Counter({
      name: 'talkbooth_calls_ended_total',
      help: 'Calls ended, by endedReason (including those the lease sweep ended).',
      labelNames: ['reason'],
      registers,
    });
    this.turns = new Counter({
      name: 'talkbooth_turns_total',
      help: "Caller turns answered, by the recognition model that heard the caller's words.",
      labelNames: ['recognition_model'],
      registers,
    });
    this.relayErrors = new Counter({
      name: 'talkbooth_call_relay_errors_total',
      help: "ROLE=api: call sockets whose voice worker could not be reached ('connect') or went away mid-call ('lost').",
      labelNames: ['kind'],
      registers,
    });
    const stage = (name: string, help: string) =>
      new Histogram({ name, help, buckets: LATENCY_BUCKETS, registers });
    this.stages = {
      voiceToVoice: stage(
        'talkbooth_voice_to_voice_seconds',
        "From the caller's last word to the assistant's first sound.",
      ),
      endOfSpeech: stage(
        'talkbooth_end_of_speech_delay_seconds',
        "Silence waited before the caller's turn was taken as over.",
      ),
      recognition: stage(
        'talkbooth_recognition_seconds',
        'From the end of the turn to the final recognition result.',
      ),
      firstText: stage(
        'talkbooth_reply_first_text_seconds',
        'From the end of the turn to the first text of the reply.',
      ),
      firstAudio: stage(
        'talkbooth_reply_first_audio_seconds',
        'From the end of the turn to the first audio of the reply sent.',
      ),
    };
    new Gauge({
      name: 'talkbooth_live_calls',
      help: 'Calls this process is serving now.',
      registers,
      collect() {
        this.set(gauges.liveCalls());
      },
    });
    new Gauge({
      name: 'talkbooth_call_places_taken',
      help: 'Call places held now (from POST /call/web until the call ends).',
      registers,
      collect() {
        this.set(gauges.placesTaken());
      },
    });
    const { capacity } = gauges;
    if (capacity !== null) {
      new Gauge({
        name: 'talkbooth_call_capacity',
        help: 'Calls this process takes at once (MAX_LIVE_CALLS).',
        registers,
        collect() {
          this.set(capacity);
        },
      });
    }
  }

  callStarted(): void {
    this.started.inc();
  }

  callEnded(reason: string): void {
    this.ended.inc({ reason });
  }

  /**
   * ROLE=api: the voice workers it dispatches to, read from the registry at each scrape
   * (alive workers, their places taken and their capacity, in all).
   */
  watchWorkers(workers: () => Promise<{ load: number; capacity: number }[]>): void {
    const registers = [this.registry];
    const gauge = (
      name: string,
      help: string,
      value: (all: { load: number; capacity: number }[]) => number,
    ) =>
      new Gauge({
        name,
        help,
        registers,
        async collect() {
          this.set(value(await workers()));
        },
      });
    gauge('talkbooth_voice_workers', 'Voice workers alive in the registry.', (all) => all.length);
    gauge(
      'talkbooth_voice_worker_places_taken',
      'Places taken on all voice workers (calls connected or reserved).',
      (all) => all.reduce((sum, w) => sum + w.load, 0),
    );
    gauge('talkbooth_voice_worker_capacity', 'Calls all voice workers take at once.', (all) =>
      all.reduce((sum, w) => sum + w.capacity, 0),
    );
  }

  relayError(kind: 'connect' | 'lost'): void {
    this.relayErrors.inc({ kind });
  }

  turn(metrics: TurnMetrics): void {
    this.turns.inc({ recognition_model: metrics.recognitionModel });
    const seconds = (ms: number | null, histogram: Histogram) => {
      if (ms !== null) histogram.observe(ms / 1000);
    };
    seconds(metrics.voiceToVoiceMs, this.stages.voiceToVoice);
    seconds(metrics.endOfSpeechDelayMs, this.stages.endOfSpeech);
    seconds(metrics.recognitionMs, this.stages.recognition);
    seconds(metrics.firstTextMs, this.stages.firstText);
    seconds(metrics.firstAudioMs, this.stages.firstAudio);
  }
}
