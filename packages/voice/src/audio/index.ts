export * from './format.js';
export * from './pcm.js';
export * from './frames.js';
export * from './mix.js';
export {
  Resampler,
  resample,
  DEFAULT_RESAMPLER_QUALITY,
  type ResamplerOptions,
} from './resampler.js';
export { encodeWav, decodeWav } from './wav.js';
