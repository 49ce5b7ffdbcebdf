import type { AssistantDto } from '@talkbooth/protocol';
import type { AnyNoiseSuppressor } from '../denoise/types.js';
import type { CreateReplyEngineOptions } from '../reply/factory.js';
import type { ReplyEngine } from '../reply/types.js';
import type { DomainVocabulary, SpeechRecognizer } from '../stt/types.js';
import type { SpeechSynthesizer } from '../tts/types.js';
import type { VoiceActivityDetector } from '../vad/index.js';

/** Which provider a call asked for at one stage, which ran, and why they differ. */
export interface ProviderChoice {
  requested: string;
  used: string;
  /** Set when `used` is a fallback for `requested`. */
  reason?: string;
  /** Anything else the operator should know about this stage (a key kept back). */
  note?: string;
}

/** The providers of a call's three stages, as the call record reports them. */
export interface StageProviders {
  transcriber: ProviderChoice;
  model: ProviderChoice;
  voice: ProviderChoice & { voiceId: string };
}

/** Something that must be ready before calls run, and be freed after. */
interface EngineLifecycle {
  /** For readiness: resolves with a short status, or throws saying what is missing. */
  check?(): Promise<string>;
  /** Frees what the engine holds; called once, when the process closes. */
  dispose?(): Promise<void>;
}

/** A speech recogniser provider (an assistant's `transcriber.provider`). */
export interface TranscriberEngine extends EngineLifecycle {
  readonly name: string;
  /** The recogniser for an assistant's vocabulary (the engine may share or cache it). */
  recognizer(vocabulary: DomainVocabulary): Promise<SpeechRecognizer>;
  /** Gets ready for calls of a newly saved assistant, so its first call starts fast. */
  prepare?(vocabulary: DomainVocabulary): Promise<void>;
  /**
   * Loads what a call of this vocabulary hears with (building its model first if need be),
   * so that the first call finds it ready instead of loading it before its greeting.
   */
  warm?(vocabulary: DomainVocabulary): Promise<void>;
  /** Decoders the engine holds (in use or spare), for tests and metrics. */
  decoderCount?(): Promise<number>;
}

/** A speech synthesiser provider (an assistant's `voice.provider`). */
export interface VoiceEngine extends EngineLifecycle {
  readonly name: string;
  /** The voice spoken when the assistant names none. */
  readonly defaultVoiceId: string;
  synthesizer(): Promise<SpeechSynthesizer>;
}

/** A reply provider (an assistant's `model.provider`). */
export interface ModelEngine {
  readonly name: string;
  /** The engine for one call; a provider that cannot run says why (the local one runs then). */
  create(
    assistant: AssistantDto,
    options: CreateReplyEngineOptions,
  ): { engine: ReplyEngine } | { unavailable: string };
}

/** Everything one call runs on, built for its assistant. */
export interface CallStages {
  recognizer: SpeechRecognizer;
  synthesizer: SpeechSynthesizer;
  voiceId: string;
  reply: ReplyEngine;
  /** The engine a failing hosted reply falls back to mid-call. */
  fallbackReply: () => ReplyEngine;
  /** Per call: free them when the call ends. */
  vad: VoiceActivityDetector;
  denoiser: AnyNoiseSuppressor;
  providers: StageProviders;
}
