export type { VoiceActivityDetector } from './types.js';
export {
  WebRtcVad,
  DEFAULT_VAD_MODE,
  type VadMode,
  type WebRtcVadOptions,
} from './webrtc/webrtc-vad.js';
