import { WebCallError } from '../../errors.js';
import type {
  GetUserMedia,
  MediaStreamLike,
  MediaStreamTrackLike,
  NoiseCancellation,
} from '../transport.js';

/**
 * What the call asks of the microphone: the browser's echo canceller (the assistant's voice
 * must not come back as the caller's) and gain control, but not its noise suppression. The
 * Talkbooth server suppresses noise itself (RNNoise) before it recognises speech, and two
 * suppressors in a row garble it: our own 43 paraphrased questions (eSpeak en-us) through
 * Chromium's capture processing were misheard by 50 % of their words with the browser's
 * suppression on, 37–41 % with it off (35.7 % sent straight to the socket).
 */
export const MICROPHONE_CONSTRAINTS = {
  audio: {
    echoCancellation: true,
    noiseSuppression: false,
    autoGainControl: true,
    channelCount: 1,
  },
} as const satisfies MediaStreamConstraints;

export interface Microphone {
  stream: MediaStreamLike;
  track: MediaStreamTrackLike;
  /** 'browser' when the browser reports its noise suppression on for the track. */
  noiseCancellation: NoiseCancellation;
}

/** Opens the microphone; failures become WebCallErrors that say what to do. */
export async function openMicrophone(getUserMedia: GetUserMedia | null): Promise<Microphone> {
  if (getUserMedia === null) {
    throw new WebCallError(
      'This browser cannot use a microphone here (calls need HTTPS or localhost, and a browser with getUserMedia).',
      { kind: 'microphone-unavailable' },
    );
  }
  let stream: MediaStreamLike;
  try {
    stream = await getUserMedia(MICROPHONE_CONSTRAINTS);
  } catch (error) {
    throw microphoneError(error);
  }
  const track = stream.getAudioTracks()[0];
  if (track === undefined) {
    for (const other of stream.getTracks()) other.stop();
    throw new WebCallError('The microphone gave no audio.', { kind: 'microphone-unavailable' });
  }
  return { stream, track, noiseCancellation: noiseCancellationOf(track) };
}

/**
 * The browser's, when it suppresses noise on the track anyway (it may not honour the
 * constraint); otherwise the server's, which every WebSocket call has.
 */
export function noiseCancellationOf(track: MediaStreamTrackLike): NoiseCancellation {
  try {
    return track.getSettings().noiseSuppression === true ? 'browser' : 'server';
  } catch {
    return 'server';
  }
}

function microphoneError(error: unknown): WebCallError {
  // A DOMException (an Error in today's browsers; checked by shape to be sure).
  const { name, message } = describe(error);
  const detail = message ? ` (${message})` : '';
  switch (name) {
    case 'NotAllowedError':
    case 'SecurityError':
    case 'PermissionDeniedError':
      return new WebCallError(
        `Microphone access was denied. Allow the microphone for this site and start the call again${detail}.`,
        { kind: 'microphone-denied', cause: error },
      );
    case 'NotFoundError':
    case 'OverconstrainedError':
    case 'DevicesNotFoundError':
      return new WebCallError(`No microphone was found${detail}.`, {
        kind: 'microphone-unavailable',
        cause: error,
      });
    case 'NotReadableError':
    case 'AbortError':
    case 'TrackStartError':
      return new WebCallError(
        `The microphone could not be opened; another application may be using it${detail}.`,
        { kind: 'microphone-unavailable', cause: error },
      );
    default:
      return new WebCallError(`The microphone could not be opened${detail}.`, {
        kind: 'microphone-unavailable',
        cause: error,
      });
  }
}

function describe(error: unknown): { name: string; message: string } {
  if (typeof error !== 'object' || error === null) return { name: '', message: String(error) };
  const { name, message } = error as { name?: unknown; message?: unknown };
  return {
    name: typeof name === 'string' ? name : '',
    message: typeof message === 'string' ? message : '',
  };
}
