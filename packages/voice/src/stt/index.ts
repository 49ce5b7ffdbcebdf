/**
 * Speech recognition: Moonshine (a neural recogniser) hears the caller; pocketsphinx, with an
 * assistant's domain language model and a general fallback, follows along while they speak.
 */
export type {
  ChannelEstimate,
  DomainVocabulary,
  RecognitionModel,
  RecognitionOptions,
  RecognitionResult,
  RecognitionStream,
  RecognitionWaits,
  SpeechRecognizer,
} from './types.js';
export {
  PocketsphinxRecognizer,
  DEFAULT_IDLE_TRIM_MS,
  domainConfidence,
  type Adaptation,
  type DetailedRecognitionResult,
  type GeneralFallback,
  type PocketsphinxRecognitionStream,
  type PocketsphinxRecognizerOptions,
} from './pocketsphinx/recognizer.js';
export {
  DEFAULT_MODEL_DIR,
  INSTALL_HINT,
  PocketsphinxUnavailableError,
  checkModel,
  modelFiles,
  pocketsphinxAvailable,
  pocketsphinxProblem,
  releaseFreedMemory,
  type ModelFiles,
} from './pocketsphinx/native.js';
export {
  LANGUAGE_MODEL_BUILDER_VERSION,
  buildDomainModel,
  buildDomainModelOffThread,
  domainModelHash,
  type DomainModel,
  type DomainModelOptions,
  type OffThreadModelOptions,
} from './language-model/build.js';
export {
  ESPEAK_GUESSER_VERSION,
  loadEspeakGuesser,
  type PronunciationGuesser,
} from './language-model/sound-out.js';
export { ipaToPhones } from './language-model/ipa-phones.js';
export {
  expandVocabulary,
  answersTo,
  CONVERSATION_PHRASES,
  type TrainingCorpus,
} from './language-model/expand.js';
export { normalizeText, numberToWords, ordinalToWords } from './language-model/normalize.js';
export {
  checkNormalisation,
  formatArpa,
  logProbability,
  parseArpa,
  trainKneserNey,
  type ArpaEntry,
  type ArpaModel,
} from './language-model/arpa.js';
export { corpusWordErrorRate, wordErrorRate, wordErrors, type WordErrors } from './wer.js';
export {
  MoonshineModel,
  MOONSHINE_SAMPLE_RATE,
  moonshineModelDir,
  type MoonshineTranscript,
} from './moonshine/moonshine-model.js';
export { MoonshineThread, type MoonshineReader } from './moonshine/moonshine-thread.js';
export {
  loadMoonshine,
  MoonshineThreads,
  type MoonshineThreadsOptions,
} from './moonshine/moonshine-threads.js';
export {
  MoonshineRecognizer,
  type MoonshineRecognizerOptions,
} from './moonshine/moonshine-recognizer.js';
export {
  SecondOpinionRecognizer,
  type SecondOpinionOptions,
} from './moonshine/second-opinion-recognizer.js';
export { BIAS_WEIGHT, biasTexts, wordBias, type WordBias } from './moonshine/word-bias.js';
