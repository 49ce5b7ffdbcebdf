export type { AnyNoiseSuppressor, NoiseSuppressor, OffThreadNoiseSuppressor } from './types.js';
export { cleansOffThread } from './types.js';
export { RnnoiseSuppressor, type RnnoiseOptions } from './rnnoise/rnnoise-suppressor.js';
export { DenoiseThreads, type DenoiseThreadsOptions } from './threads/denoise-threads.js';
export { QuietGate, type GateDecision, type QuietGateOptions } from './quiet-gate.js';
