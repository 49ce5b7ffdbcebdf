/**
 * @talkbooth/web-call: the browser web-call client. The hosted platform's web SDK surface
 * (`import Vapi from '@vapi-ai/web'` becomes `import WebCallClient from '@talkbooth/web-call'`)
 * over Talkbooth's WebSocket transport, and over Daily rooms for the hosted platform.
 */
import { WebCallClient } from './web-call-client.js';

export { WebCallClient };
export default WebCallClient;
export type {
  AssistantOverrides,
  CallEndInfo,
  StartCallOptions,
  WebCallClientOptions,
  WebCallEvents,
} from './web-call-client.js';
export { ConnectionLostError, WebCallError } from './errors.js';
export type { WebCallErrorDetails, WebCallErrorKind } from './errors.js';
export {
  AUDIO_LEVEL_INTERVAL_MS,
  FULL_VOLUME_LEVEL,
  SPEECH_END_DELAY_MS,
  SPEECH_LEVEL_THRESHOLD,
  SpeechDetector,
  volumeFromLevel,
} from './speech-detection.js';
export type { SpeechSample } from './speech-detection.js';
export {
  CALLER_AUDIO,
  CALLER_FRAME_SAMPLES,
  DEFAULT_ASSISTANT_SAMPLE_RATE,
  LISTENING,
} from './transports/messages.js';
export { PLAYBACK_BUFFER } from './transports/websocket/websocket-transport.js';
export { MICROPHONE_CONSTRAINTS } from './transports/websocket/microphone.js';
export { workletUrls } from './worklet-urls.js';
export type { WorkletUrls } from './worklet-urls.js';
export type {
  AudioOutputPath,
  NoiseCancellation,
  Transport,
  TransportClosed,
  TransportContext,
  TransportFactory,
  TransportHandlers,
  TransportKind,
} from './transports/transport.js';
export type {
  DailyCallLike,
  DailyFactoryLike,
  DailyLoader,
} from './transports/daily/daily-types.js';
export type { AssistantDto, Call, ClientMessage, ServerMessage } from '@talkbooth/protocol';
