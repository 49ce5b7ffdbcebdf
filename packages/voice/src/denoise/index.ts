export type { NoiseSuppressor } from './types.js';
export { RnnoiseSuppressor, type RnnoiseOptions } from './rnnoise/rnnoise-suppressor.js';
