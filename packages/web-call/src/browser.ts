import type {
  AudioContextConstructor,
  AudioWorkletNodeConstructor,
  GetUserMedia,
  MediaStreamLike,
  MediaStreamTrackLike,
  WebSocketConstructor,
} from './transports/transport.js';
import type { RtcPeerConnectionLike } from './transports/websocket/loopback.js';

/**
 * The browser's constructors, seen through the narrow interfaces the transports use. The
 * DOM's own types are wider (their constructors take `BaseAudioContext`, their event
 * handlers take the DOM's event classes), so TypeScript cannot see that they fit these
 * interfaces through constructor parameters: this one cast, checked by the Playwright tests
 * in Chromium, stands for that.
 */
interface BrowserGlobals {
  WebSocket?: WebSocketConstructor;
  AudioContext?: AudioContextConstructor;
  webkitAudioContext?: AudioContextConstructor;
  AudioWorkletNode?: AudioWorkletNodeConstructor;
  RTCPeerConnection?: new (configuration?: RTCConfiguration) => RtcPeerConnectionLike;
  MediaStream?: new (tracks: MediaStreamTrackLike[]) => MediaStreamLike;
  navigator?: { mediaDevices?: { getUserMedia?: GetUserMedia } };
  document?: Document;
}

export function browserGlobals(): BrowserGlobals {
  return globalThis as unknown as BrowserGlobals;
}

/** `navigator.mediaDevices.getUserMedia`, or null where there is none (plain HTTP, old browsers). */
export function browserGetUserMedia(): GetUserMedia | null {
  const devices = browserGlobals().navigator?.mediaDevices;
  if (devices?.getUserMedia === undefined) return null;
  return (constraints) => (devices.getUserMedia as GetUserMedia).call(devices, constraints);
}
