import { WebCallError } from '../../errors.js';
import type {
  GetUserMedia,
  MediaStreamLike,
  MediaStreamTrackLike,
  NoiseCancellation,
} from '../transport.js';

/** What the call asks of the microphone: the browser's echo canceller, noise suppression and AGC. */
export const MICROPHONE_CONSTRAINTS = {
  audio: {
    echoCancellation: true,
    noiseSuppression: true,
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

export function noiseCancellationOf(track: MediaStreamTrackLike): NoiseCancellation {
  try {
    return track.getSettings().noiseSuppression === true ? 'browser' : 'none';
  } catch {
    return 'none';
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
