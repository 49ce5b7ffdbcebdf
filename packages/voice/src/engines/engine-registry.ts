import type { AssistantDto } from '@talkbooth/protocol';
import { vocabularyFor } from '../assistant/vocabulary.js';
import { RnnoiseSuppressor } from '../denoise/index.js';
import { DenoiseThreads, denoiseWorkerBuilt } from '../denoise/threads/denoise-threads.js';
import type { AnyNoiseSuppressor } from '../denoise/types.js';
import { createReplyEngine, type CreateReplyEngineOptions } from '../reply/factory.js';
import { LocalReplyEngine } from '../reply/local/engine.js';
import { BUILT_IN_MODELS } from '../reply/model-engines.js';
import { WebRtcVad } from '../vad/index.js';
import type {
  CallStages,
  ModelEngine,
  ProviderChoice,
  StageProviders,
  TranscriberEngine,
  VoiceEngine,
} from './types.js';

export interface EngineRegistryOptions {
  /** The transcriber a call runs on when its assistant names none, or one not registered. */
  transcriber: TranscriberEngine;
  /** The voice a call speaks with when its assistant names none, or one not registered. */
  voice: VoiceEngine;
  /** Reply providers besides the built-in ones (`local`, `openai`, `custom-llm`). */
  models?: readonly ModelEngine[];
  /**
   * Threads that clean the callers' audio (RNNoise), started with the first call. Default:
   * one per core when the denoise worker is built; 0 cleans on the event loop.
   */
  denoiseThreads?: number;
  /** Told when a denoise thread dies or fails a frame (calls go on). */
  onDenoiseProblem?: (message: string) => void;
}

/**
 * Chooses the engines a call's stages run on, from its assistant: its transcriber, its
 * voice, and its reply model, by provider name. A provider this process does not have
 * falls back to the default engine, and the call's providers say so and why. Adding an
 * engine is registering it here; the server never names one.
 */
export class EngineRegistry {
  private readonly transcribers = new Map<string, TranscriberEngine>();
  private readonly voices = new Map<string, VoiceEngine>();
  private readonly models: ModelEngine[];
  /** Undefined until the first call; null when cleaning on the event loop. */
  private denoise: DenoiseThreads | null | undefined;

  constructor(private readonly defaults: EngineRegistryOptions) {
    this.addTranscriber(defaults.transcriber);
    this.addVoice(defaults.voice);
    this.models = [...BUILT_IN_MODELS, ...(defaults.models ?? [])];
  }

  addTranscriber(engine: TranscriberEngine): this {
    this.transcribers.set(engine.name, engine);
    return this;
  }

  addVoice(engine: VoiceEngine): this {
    this.voices.set(engine.name, engine);
    return this;
  }

  addModel(engine: ModelEngine): this {
    const at = this.models.findIndex((m) => m.name === engine.name);
    if (at === -1) this.models.push(engine);
    else this.models[at] = engine;
    return this;
  }

  /** Which transcriber and voice an assistant's calls run on (without building anything). */
  chooseSpeech(assistant: AssistantDto): {
    transcriber: TranscriberEngine;
    voice: VoiceEngine;
    providers: Omit<StageProviders, 'model'>;
  } {
    const transcriber = this.pick(
      this.transcribers,
      assistant.transcriber?.provider,
      this.defaults.transcriber,
      'transcriber',
    );
    const voice = this.pick(this.voices, assistant.voice?.provider, this.defaults.voice, 'voice');
    const voiceId =
      voice.choice.reason === undefined
        ? (assistant.voice?.voiceId ?? voice.engine.defaultVoiceId)
        : voice.engine.defaultVoiceId;
    return {
      transcriber: transcriber.engine,
      voice: voice.engine,
      providers: { transcriber: transcriber.choice, voice: { ...voice.choice, voiceId } },
    };
  }

  /** Builds every engine one call of this assistant runs on. */
  async stagesFor(assistant: AssistantDto, options: CreateReplyEngineOptions): Promise<CallStages> {
    const speech = this.chooseSpeech(assistant);
    const { engine: reply, fallbackReason } = createReplyEngine(assistant, options, this.models);
    const requested = assistant.model?.provider ?? 'local';
    const model: ProviderChoice = {
      requested,
      used: reply.provider,
      ...(fallbackReason === undefined ? {} : { reason: fallbackReason }),
    };
    // The meaning of its knowledge base, while the greeting plays (done already when the
    // assistant was warmed at start).
    if (reply instanceof LocalReplyEngine) void reply.warm().catch(() => undefined);
    const [synthesizer, recognizer, vad, denoiser] = await Promise.all([
      speech.voice.synthesizer(),
      speech.transcriber.recognizer(vocabularyFor(assistant)),
      WebRtcVad.create(),
      this.denoiser(),
    ]);
    const { variableValues } = options;
    return {
      recognizer,
      synthesizer,
      voiceId: speech.providers.voice.voiceId,
      reply,
      fallbackReply: () => new LocalReplyEngine({ assistant, variableValues }),
      vad,
      denoiser,
      providers: { ...speech.providers, model },
    };
  }

  /** Gets the transcriber of a newly saved assistant ready, so its first call starts fast. */
  prepare(assistant: AssistantDto): Promise<void> {
    const { transcriber } = this.chooseSpeech(assistant);
    return transcriber.prepare?.(vocabularyFor(assistant)) ?? Promise.resolve();
  }

  /**
   * Gets the engines of an assistant's calls ready before anyone calls: its recogniser
   * loaded (its language model built first if need be), its voice, and the meaning of its
   * knowledge base. The first call of a freshly started server otherwise spends about
   * 2.5 s on this before its greeting, and half a second more on its first answer.
   */
  async warm(assistant: AssistantDto): Promise<void> {
    const { transcriber, voice } = this.chooseSpeech(assistant);
    await Promise.all([
      transcriber.warm?.(vocabularyFor(assistant)),
      voice.synthesizer(),
      new LocalReplyEngine({ assistant }).warm(),
    ]);
  }

  /** For readiness: every registered engine that can check itself does; throws on the first problem. */
  async check(): Promise<string> {
    for (const engine of [...this.transcribers.values(), ...this.voices.values()])
      await engine.check?.();
    return 'ok';
  }

  /** Decoders held by every transcriber (in use, reserved or spare). */
  async decoderCount(): Promise<number> {
    const counts = await Promise.all(
      [...this.transcribers.values()].map((t) => t.decoderCount?.() ?? Promise.resolve(0)),
    );
    return counts.reduce((sum, n) => sum + n, 0);
  }

  /** Frees every engine (waiting for work that writes to disk). */
  async dispose(): Promise<void> {
    await Promise.all([
      ...[...this.transcribers.values(), ...this.voices.values()].map((e) => e.dispose?.()),
      this.denoise?.close(),
    ]);
    this.denoise = undefined;
  }

  /** One call's noise suppressor: on a denoise thread, or on the event loop. */
  private async denoiser(): Promise<AnyNoiseSuppressor> {
    if (this.denoise === undefined) {
      const size = this.defaults.denoiseThreads ?? (denoiseWorkerBuilt() ? undefined : 0);
      this.denoise =
        size === 0
          ? null
          : new DenoiseThreads({
              ...(size === undefined ? {} : { size }),
              ...(this.defaults.onDenoiseProblem
                ? { onProblem: this.defaults.onDenoiseProblem }
                : {}),
            });
    }
    return this.denoise?.open() ?? RnnoiseSuppressor.create();
  }

  private pick<E extends { name: string }>(
    engines: Map<string, E>,
    requested: string | undefined,
    fallback: E,
    stage: 'transcriber' | 'voice',
  ): { engine: E; choice: ProviderChoice } {
    const name = requested ?? fallback.name;
    const engine = engines.get(name);
    if (engine !== undefined) return { engine, choice: { requested: name, used: name } };
    const have = [...engines.keys()].join(', ');
    return {
      engine: fallback,
      choice: {
        requested: name,
        used: fallback.name,
        reason: `${name} is not a ${stage} this server runs (it has ${have}), so ${fallback.name} ran instead`,
      },
    };
  }
}
