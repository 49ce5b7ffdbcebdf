export type { CallConclusion, ChatMessage, ReplyEngine, ReplyEvent } from './types.js';
export { ReplyProviderError, type ReplyProviderErrorKind } from './errors.js';
export {
  createReplyEngine,
  type CreateReplyEngineOptions,
  type CreatedReplyEngine,
} from './factory.js';
export {
  SentenceChunker,
  sentencesOf,
  speakable,
  splitSentences,
  type SentenceChunkerOptions,
} from './sentences.js';
export { fillTemplate, greetingOf } from './template.js';
export { BUILT_IN_MODELS, customLlmModel, localModel, openAiModel } from './model-engines.js';
export { LocalReplyEngine, type LocalReplyEngineOptions } from './local/engine.js';
export { KnowledgeBase } from './local/knowledge/knowledge-base.js';
export type { KnowledgeMatch, Retrieval } from './local/knowledge/match.js';
export { topicOf } from './local/knowledge/topics.js';
export { DEFAULT_THRESHOLDS, type RetrievalThresholds } from './local/knowledge/tuning.js';
export { Bm25Index, type Bm25Options } from './local/bm25.js';
export {
  OPENAI_BASE_URL,
  OpenAiCompatibleReplyEngine,
  type OpenAiCompatibleReplyEngineOptions,
  type ReplyFetch,
} from './openai/engine.js';
export { SseParser, SseDecoder, type SseEvent } from './openai/sse.js';
