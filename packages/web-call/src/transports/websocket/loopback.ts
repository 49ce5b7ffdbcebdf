import type { MediaStreamLike, MediaStreamTrackLike } from '../transport.js';

/**
 * The echo-cancellation loopback. Chrome's acoustic echo canceller uses only audio played
 * from a peer connection as its reference: what Web Audio plays straight to the speakers is
 * not cancelled, so the assistant would hear itself. Routing the playback through a local
 * pair of RTCPeerConnections (sender.addTrack → receiver.ontrack) and playing the received
 * track in an <audio> element makes it a WebRTC track the canceller knows.
 */

export interface RtcTrackEventLike {
  readonly track: MediaStreamTrackLike;
  readonly streams: readonly MediaStreamLike[];
  readonly receiver: { jitterBufferTarget?: number | null };
}

export interface RtcPeerConnectionLike {
  onicecandidate: ((event: { candidate: RTCIceCandidate | null }) => void) | null;
  ontrack: ((event: RtcTrackEventLike) => void) | null;
  onconnectionstatechange: ((event: Event) => void) | null;
  readonly connectionState: RTCPeerConnectionState;
  addTrack(track: MediaStreamTrackLike, ...streams: MediaStreamLike[]): unknown;
  addIceCandidate(candidate: RTCIceCandidate): Promise<void>;
  createOffer(): Promise<RTCSessionDescriptionInit>;
  createAnswer(): Promise<RTCSessionDescriptionInit>;
  setLocalDescription(description: RTCSessionDescriptionInit): Promise<void>;
  setRemoteDescription(description: RTCSessionDescriptionInit): Promise<void>;
  close(): void;
}

/** The <audio> element's parts the loopback uses. */
export interface AudioElementLike {
  autoplay: boolean;
  srcObject: MediaProvider | MediaStreamLike | null;
  play(): Promise<void>;
  pause(): void;
  remove(): void;
}

export interface LoopbackDeps {
  RTCPeerConnection: new (configuration?: RTCConfiguration) => RtcPeerConnectionLike;
  MediaStream: new (tracks: MediaStreamTrackLike[]) => MediaStreamLike;
  createAudioElement: () => AudioElementLike;
  /** How long each step may take before the loopback is given up (ms). */
  timeoutMs?: number;
}

export interface Loopback {
  readonly element: AudioElementLike;
  /** The receiving side, for measurements. */
  readonly remoteStream: MediaStreamLike;
  close(): void;
}

const DEFAULT_TIMEOUT_MS = 2_000;

/** Sends `source` (the playback's MediaStream) through a local peer connection pair and plays it. */
export async function openLoopback(source: MediaStreamLike, deps: LoopbackDeps): Promise<Loopback> {
  const timeoutMs = deps.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  // No ICE servers: both ends are in this page, host candidates are enough.
  const sender = new deps.RTCPeerConnection({ iceServers: [] });
  const receiver = new deps.RTCPeerConnection({ iceServers: [] });
  const element = deps.createAudioElement();
  const close = () => {
    sender.onicecandidate = receiver.onicecandidate = null;
    receiver.ontrack = receiver.onconnectionstatechange = null;
    sender.close();
    receiver.close();
    element.pause();
    element.srcObject = null;
    element.remove();
  };
  try {
    sender.onicecandidate = ({ candidate }) => {
      if (candidate) receiver.addIceCandidate(candidate).catch(() => undefined);
    };
    receiver.onicecandidate = ({ candidate }) => {
      if (candidate) sender.addIceCandidate(candidate).catch(() => undefined);
    };
    const trackEvent = new Promise<RtcTrackEventLike>((resolve) => {
      receiver.ontrack = resolve;
    });
    const connected = new Promise<void>((resolve, reject) => {
      receiver.onconnectionstatechange = () => {
        if (receiver.connectionState === 'connected') resolve();
        if (receiver.connectionState === 'failed')
          reject(new Error('The loopback did not connect.'));
      };
    });
    connected.catch(() => undefined); // awaited below only when not connected yet
    for (const track of source.getAudioTracks()) sender.addTrack(track, source);

    const offer = await sender.createOffer();
    await sender.setLocalDescription(offer);
    await receiver.setRemoteDescription(offer);
    const answer = await receiver.createAnswer();
    await receiver.setLocalDescription(answer);
    // The answer tells the sender how to encode: mono Opus at a high bitrate (it never
    // leaves the machine), no DTX, so the voice crosses the loop unharmed.
    await sender.setRemoteDescription({ type: answer.type, sdp: tuneOpus(answer.sdp ?? '') });

    const event = await withTimeout(trackEvent, timeoutMs, 'The loopback received no track.');
    // Play as soon as possible: the jitter buffer of a loop on one machine can be minimal.
    if ('jitterBufferTarget' in event.receiver) event.receiver.jitterBufferTarget = 0;
    const remoteStream = event.streams[0] ?? new deps.MediaStream([event.track]);
    if (receiver.connectionState !== 'connected') {
      await withTimeout(connected, timeoutMs, 'The loopback did not connect in time.');
    }
    element.autoplay = true;
    element.srcObject = remoteStream;
    await withTimeout(element.play(), timeoutMs, 'The loopback audio did not start playing.');
    return { element, remoteStream, close };
  } catch (error) {
    close();
    throw error;
  }
}

/**
 * Tunes the Opus of an SDP answer for a loop inside one machine: mono, a high bitrate (it
 * never touches a network), no DTX, and 10 ms packets (measured in headless Chromium: about
 * 7 ms less delay across the loop than the default 20 ms).
 */
export function tuneOpus(sdp: string): string {
  const opusTypes = [...sdp.matchAll(/^a=rtpmap:(\d+) opus\/48000/gim)].map((m) => m[1]);
  const params = 'stereo=0;sprop-stereo=0;maxaveragebitrate=128000;usedtx=0;minptime=10';
  const replaced = /^(stereo|sprop-stereo|maxaveragebitrate|usedtx|minptime)=/i;
  let tuned = sdp;
  for (const type of opusTypes) {
    const fmtp = new RegExp(`^a=fmtp:${type} (.*)$`, 'im');
    if (fmtp.test(tuned)) {
      tuned = tuned.replace(fmtp, (_line, existing: string) => {
        const kept = existing.split(';').filter((p) => p.trim() !== '' && !replaced.test(p.trim()));
        return `a=fmtp:${type} ${[...kept, params].join(';')}`;
      });
    } else {
      tuned = tuned.replace(
        new RegExp(`^(a=rtpmap:${type} opus/48000.*)$`, 'im'),
        `$1\r\na=fmtp:${type} ${params}`,
      );
    }
  }
  if (opusTypes.length > 0 && !/^a=ptime:/im.test(tuned)) {
    const type = opusTypes[0] as string;
    tuned = tuned.replace(new RegExp(`^(a=fmtp:${type} .*)$`, 'im'), '$1\r\na=ptime:10');
  }
  return tuned;
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(message)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
