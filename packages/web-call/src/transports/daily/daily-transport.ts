import type {
  DailyEventObject,
  DailyParticipant,
  DailyParticipantsObject,
} from '@daily-co/daily-js';
import { WebCallError } from '../../errors.js';
import { AUDIO_LEVEL_INTERVAL_MS } from '../../speech-detection.js';
import { asServerMessage, warnDropped } from '../messages.js';
import type {
  AudioOutputPath,
  MediaStreamLike,
  MediaStreamTrackLike,
  NoiseCancellation,
  OutgoingMessage,
  Transport,
  TransportContext,
} from '../transport.js';
import type { DailyCallLike, DailyFactoryLike, DailyLoader } from './daily-types.js';

/** Loads daily-js only when a Daily call starts: it stays out of the page's main chunk. */
export const loadDaily: DailyLoader = async () =>
  dailyFactoryOf(await import('@daily-co/daily-js'));

/**
 * daily-js's `Daily` from its module. Its ESM build (what bundlers use) exports it as
 * `default`; its UMD build seen through CommonJS interop is `default` too, though
 * TypeScript's NodeNext view of the typings nests it once more. Checked, not assumed.
 */
export function dailyFactoryOf(module: unknown): DailyFactoryLike {
  const outer = (module as { default?: unknown } | null)?.default;
  const inner = (outer as { default?: unknown } | null | undefined)?.default;
  for (const candidate of [outer, inner, module]) {
    if (typeof (candidate as Partial<DailyFactoryLike> | null)?.createCallObject === 'function') {
      return candidate as DailyFactoryLike;
    }
  }
  throw new Error('daily-js did not provide createCallObject().');
}

/** The <audio> element parts the transport uses (jsdom's and the browser's fit). */
export interface ParticipantAudioElement {
  autoplay: boolean;
  srcObject: MediaProvider | MediaStreamLike | null;
  readonly dataset: DOMStringMap;
  play(): Promise<void>;
  pause(): void;
  remove(): void;
}

export interface DailyTransportDeps {
  loadDaily: DailyLoader;
  /** Makes and attaches an <audio> element (default: appended to document.body). */
  createAudioElement: () => ParticipantAudioElement;
  MediaStream: new (tracks: MediaStreamTrackLike[]) => MediaStreamLike;
}

/** The default <audio> element: hidden in document.body, as the hosted SDK does. */
export function createBodyAudioElement(): ParticipantAudioElement {
  const element = document.createElement('audio');
  element.hidden = true;
  document.body.appendChild(element);
  return element;
}

type Phase = 'idle' | 'connecting' | 'connected' | 'closed';

/**
 * A call in a Daily room (the hosted platform's webCallUrl), with the hosted SDK's
 * behaviour: remote audio subscribed per participant and played in one <audio> element
 * each, Daily's noise-cancellation processor on the microphone after joining, the remote
 * audio levels every 100 ms, app messages as the call's messages.
 */
export class DailyTransport implements Transport {
  readonly kind = 'daily';
  private phase: Phase = 'idle';
  private call: DailyCallLike | null = null;
  private nc: NoiseCancellation = 'none';
  private muted = false;
  private playableSent = false;
  private endedReason: string | undefined;
  private readonly players = new Map<string, ParticipantAudioElement>();
  /** Removes the transport's Daily event handlers. */
  private readonly unsubscribers: (() => void)[] = [];

  constructor(
    private readonly context: TransportContext,
    private readonly deps: DailyTransportDeps,
  ) {}

  get noiseCancellation(): NoiseCancellation {
    return this.nc;
  }

  get audioOutput(): AudioOutputPath | null {
    return this.phase === 'connected' ? 'daily' : null;
  }

  /** The participants whose audio is playing, by session id (for tests and debugging). */
  get audioElements(): ReadonlyMap<string, ParticipantAudioElement> {
    return this.players;
  }

  async connect(): Promise<void> {
    if (this.phase !== 'idle') throw new Error('connect() may be called once.');
    this.phase = 'connecting';
    try {
      let Daily;
      try {
        Daily = await this.deps.loadDaily();
      } catch (error) {
        throw new WebCallError('The Daily call library could not be loaded.', {
          kind: 'daily',
          cause: error,
        });
      }
      this.checkStillConnecting();
      const call = Daily.createCallObject({ audioSource: true, videoSource: false });
      this.call = call;
      if (this.muted) call.setLocalAudio(false);
      this.listen(call);
      try {
        await call.join({ url: this.context.url, subscribeToTracksAutomatically: false });
      } catch (error) {
        throw new WebCallError(`Could not join the call room: ${messageOf(error)}`, {
          kind: 'daily',
          cause: error,
        });
      }
      this.checkStillConnecting();
      this.phase = 'connected';
      // Participants already in the room got no participant-joined event.
      for (const participant of remoteParticipants(call.participants())) {
        this.subscribe(participant);
      }
      call.startRemoteParticipantsAudioLevelObserver(AUDIO_LEVEL_INTERVAL_MS).catch((error) => {
        console.warn('[web-call] Daily audio level observer could not start:', error);
      });
      this.applyNoiseCancellation(call);
    } catch (error) {
      await this.release();
      this.phase = 'closed';
      throw error;
    }
  }

  send(message: OutgoingMessage): void {
    if (this.phase !== 'connected') return;
    this.call?.sendAppMessage(JSON.stringify(message));
  }

  setMuted(muted: boolean): void {
    this.muted = muted;
    this.call?.setLocalAudio(!muted);
  }

  isMuted(): boolean {
    if (this.call === null) return this.muted;
    return !this.call.localAudio();
  }

  async close(): Promise<void> {
    if (this.phase === 'closed') return;
    this.phase = 'closed';
    await this.release();
  }

  // ---- Daily events ----------------------------------------------------------------------

  private listen(call: DailyCallLike): void {
    this.on(call, 'participant-joined', (event) => this.subscribe(event.participant));
    this.on(call, 'participant-left', (event) => this.removePlayer(event.participant.session_id));
    this.on(call, 'track-started', (event) => this.onTrackStarted(event));
    this.on(call, 'track-stopped', (event) => {
      if (event.participant !== null && !event.participant.local && event.track.kind === 'audio') {
        this.removePlayer(event.participant.session_id);
      }
    });
    this.on(call, 'app-message', (event) => this.onAppMessage(event.data));
    this.on(call, 'remote-participants-audio-level', (event) => {
      const levels = Object.values(event.participantsAudioLevel);
      this.context.handlers.level(levels.reduce((sum, level) => sum + level, 0));
    });
    this.on(call, 'nonfatal-error', (event) => {
      if (event.type === 'audio-processor-error') {
        console.warn('[web-call] Daily noise cancellation failed; turning it off.', event.errorMsg);
        this.nc = 'none';
        call
          .updateInputSettings({ audio: { processor: { type: 'none' } } })
          .then(() => call.setLocalAudio(!this.muted))
          .catch(() => undefined);
      }
    });
    this.on(call, 'error', (event) => {
      if (this.phase !== 'connected') return; // join() rejects and says why
      this.finish({
        error: new WebCallError(`The call room reported an error: ${event.errorMsg}`, {
          kind: 'daily',
          cause: event.error,
        }),
      });
    });
    this.on(call, 'left-meeting', () => {
      if (this.phase !== 'connected') return;
      this.finish(this.endedReason === undefined ? {} : { endedReason: this.endedReason });
    });
  }

  private on<T extends Parameters<DailyCallLike['on']>[0]>(
    call: DailyCallLike,
    event: T,
    handler: (event: DailyEventObject<T>) => void,
  ): void {
    // Daily may hand some events over without a payload; none of ours is useful without.
    const guarded = (payload: DailyEventObject<T> | undefined) => {
      if (payload === undefined || payload === null || this.phase === 'closed') return;
      handler(payload);
    };
    call.on(event, guarded);
    this.unsubscribers.push(() => call.off(event, guarded));
  }

  private subscribe(participant: DailyParticipant): void {
    if (participant.local || this.call === null) return;
    this.call.updateParticipant(participant.session_id, {
      setSubscribedTracks: { audio: true, video: false, screenVideo: false, screenAudio: false },
    });
  }

  private onTrackStarted(event: DailyEventObject<'track-started'>): void {
    const participant = event.participant;
    if (participant === null || participant.local || event.track.kind !== 'audio') return;
    const id = participant.session_id;
    this.removePlayer(id);
    const element = this.deps.createAudioElement();
    element.dataset.participantId = id;
    element.autoplay = true;
    element.srcObject = new this.deps.MediaStream([event.track]);
    this.players.set(id, element);
    element.play().then(
      () => {
        if (this.players.get(id) !== element || this.playableSent) return;
        this.playableSent = true;
        // The hosted platform waits for this before the assistant speaks.
        this.call?.sendAppMessage('playable');
      },
      (error: unknown) => {
        if (this.players.get(id) !== element) return;
        this.context.handlers.error(
          new WebCallError(
            `The assistant's audio could not start playing (${messageOf(error)}); the browser may need a click first.`,
            { kind: 'audio', cause: error },
          ),
        );
      },
    );
  }

  private removePlayer(id: string): void {
    const element = this.players.get(id);
    if (element === undefined) return;
    this.players.delete(id);
    element.pause();
    element.srcObject = null;
    element.remove();
  }

  private onAppMessage(data: unknown): void {
    const parsed = asServerMessage(data);
    if (parsed.kind === 'invalid') return warnDropped(data, parsed.reason);
    if (parsed.kind === 'listening') return this.context.handlers.listening();
    const message = parsed.message;
    if (message.type === 'status-update' && message.status === 'ended') {
      this.endedReason = message.endedReason ?? 'unknown';
    }
    this.context.handlers.message(message);
  }

  private applyNoiseCancellation(call: DailyCallLike): void {
    call.updateInputSettings({ audio: { processor: { type: 'noise-cancellation' } } }).then(
      () => {
        if (this.phase === 'connected') this.nc = 'krisp';
      },
      (error: unknown) => {
        console.warn('[web-call] Daily noise cancellation could not be turned on:', error);
        this.nc = 'none';
      },
    );
  }

  private checkStillConnecting(): void {
    if (this.phase !== 'connecting') {
      throw new WebCallError('The call was stopped while it was starting.', { kind: 'unknown' });
    }
  }

  private finish(info: { endedReason?: string; error?: Error }): void {
    if (this.phase === 'closed') return;
    this.phase = 'closed';
    void this.release();
    this.context.handlers.closed(info);
  }

  private async release(): Promise<void> {
    for (const id of [...this.players.keys()]) this.removePlayer(id);
    const call = this.call;
    this.call = null;
    if (call === null) return;
    for (const unsubscribe of this.unsubscribers.splice(0)) unsubscribe();
    try {
      await call.leave();
    } catch {
      // not joined, or already left
    }
    try {
      await call.destroy();
    } catch (error) {
      console.warn('[web-call] Daily call object could not be destroyed:', error);
    }
  }
}

function remoteParticipants(participants: DailyParticipantsObject): DailyParticipant[] {
  return Object.entries(participants)
    .filter(([key, participant]) => key !== 'local' && !participant.local)
    .map(([, participant]) => participant);
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null) {
    const { errorMsg, message } = error as { errorMsg?: unknown; message?: unknown };
    if (typeof errorMsg === 'string') return errorMsg;
    if (typeof message === 'string') return message;
  }
  return String(error);
}
