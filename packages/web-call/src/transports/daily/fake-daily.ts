import type {
  DailyCallOptions,
  DailyEvent,
  DailyEventObject,
  DailyFactoryOptions,
  DailyInputSettings,
  DailyParticipant,
  DailyParticipantUpdateOptions,
  DailyParticipantsObject,
  DailyTrackState,
  DailyTrackSubscriptionOptions,
} from '@daily-co/daily-js';
import type { DailyCallLike, DailyFactoryLike, DailyLoader } from './daily-types.js';

/**
 * A fake of daily-js's call object (`Daily.createCallObject()`), for tests: the hosted
 * platform's Daily rooms cannot be reached from here. It keeps the documented shapes and
 * order of the methods and events the Daily transport uses:
 *
 * - `join()` emits `joining-meeting`, then `joined-meeting` (with `participants`) and
 *   resolves with the participants; remote participants already in the room get no
 *   `participant-joined`.
 * - With `subscribeToTracksAutomatically: false`, a remote track starts (`track-started`,
 *   `participant.tracks.audio.state === 'playable'`) only once subscribed through
 *   `updateParticipant(id, { setSubscribedTracks })`; it stops (`track-stopped`) before
 *   `participant-left`.
 * - `leave()` emits `left-meeting`; `destroy()` leaves first if needed and then refuses
 *   every further call. Events carry `action` and `callClientId` like daily-js's.
 * - `startRemoteParticipantsAudioLevelObserver` rejects intervals under 100 ms as daily-js
 *   does; `emitRemoteAudioLevels` plays the observer's `remote-participants-audio-level`.
 *
 * The room's side (other participants, app messages, levels, failures) is driven through
 * the methods under "The room".
 */
export class FakeDailyCall implements DailyCallLike {
  readonly callClientId: string;
  readonly factoryOptions: DailyFactoryOptions;
  /** Every method call, in order (name and arguments), to check what the client did. */
  readonly log: { method: string; args: unknown[] }[] = [];
  /** What `sendAppMessage` sent. */
  readonly appMessages: { data: unknown; to: string }[] = [];
  meetingState: 'new' | 'joining-meeting' | 'joined-meeting' | 'left-meeting' | 'error' = 'new';
  destroyed = false;
  joinOptions: DailyCallOptions | null = null;
  inputSettings: DailyInputSettings = {};
  audioLevelObserverInterval: number | null = null;
  readonly subscriptions = new Map<string, DailyTrackSubscriptionOptions>();

  /** Make `join()` fail with this (as daily-js does: the promise rejects and `error` is emitted). */
  joinError: { errorMsg: string } | null = null;
  /** Make `updateInputSettings` with the noise-cancellation processor reject with this. */
  noiseCancellationError: Error | null = null;

  private readonly handlers = new Map<DailyEvent, Set<(event: never) => void>>();
  private readonly local: DailyParticipant;
  private readonly remotes = new Map<string, DailyParticipant>();
  private nextId = 1;

  constructor(options: DailyFactoryOptions = {}, callClientId = 'fake-call-client') {
    this.factoryOptions = options;
    this.callClientId = callClientId;
    this.local = participant({
      session_id: 'local-session',
      user_name: '',
      local: true,
      audio: options.audioSource !== false,
    });
  }

  // ---- the DailyCall methods -------------------------------------------------------------

  async join(options: DailyCallOptions): Promise<DailyParticipantsObject> {
    this.record('join', options);
    this.assertUsable();
    this.joinOptions = options;
    this.meetingState = 'joining-meeting';
    this.emit('joining-meeting', { action: 'joining-meeting', callClientId: this.callClientId });
    await Promise.resolve();
    if (this.joinError !== null) {
      this.meetingState = 'error';
      this.emit('error', {
        action: 'error',
        callClientId: this.callClientId,
        errorMsg: this.joinError.errorMsg,
      });
      throw this.joinError;
    }
    this.meetingState = 'joined-meeting';
    const participants = this.participants();
    this.emit('joined-meeting', {
      action: 'joined-meeting',
      callClientId: this.callClientId,
      participants,
    });
    return participants;
  }

  async leave(): Promise<void> {
    this.record('leave');
    if (this.destroyed) return;
    if (this.meetingState !== 'joined-meeting' && this.meetingState !== 'joining-meeting') return;
    this.meetingState = 'left-meeting';
    this.emit('left-meeting', { action: 'left-meeting', callClientId: this.callClientId });
  }

  async destroy(): Promise<void> {
    this.record('destroy');
    if (this.destroyed) return;
    if (this.meetingState === 'joined-meeting') await this.leave();
    this.destroyed = true;
    this.emit('call-instance-destroyed', {
      action: 'call-instance-destroyed',
      callClientId: this.callClientId,
    });
    this.handlers.clear();
  }

  participants(): DailyParticipantsObject {
    const all: DailyParticipantsObject = { local: this.local };
    for (const [id, remote] of this.remotes) all[id] = remote;
    return all;
  }

  updateParticipant(sessionId: string, updates: DailyParticipantUpdateOptions): this {
    this.record('updateParticipant', sessionId, updates);
    this.assertUsable();
    const remote = this.remotes.get(sessionId);
    if (remote === undefined || updates.setSubscribedTracks === undefined) return this;
    this.subscriptions.set(sessionId, updates.setSubscribedTracks);
    const audio = audioSubscription(updates.setSubscribedTracks);
    remote.tracks.audio.subscribed = audio;
    // daily-js starts the track asynchronously once subscribed.
    if (audio === true) queueMicrotask(() => this.startAudioIfSubscribed(sessionId));
    return this;
  }

  setLocalAudio(enabled: boolean): this {
    this.record('setLocalAudio', enabled);
    this.assertUsable();
    this.local.audio = enabled;
    this.local.tracks.audio.state = enabled ? 'playable' : 'off';
    if (this.meetingState === 'joined-meeting') {
      this.emit('participant-updated', {
        action: 'participant-updated',
        callClientId: this.callClientId,
        participant: this.local,
      });
    }
    return this;
  }

  localAudio(): boolean {
    return this.local.audio;
  }

  async updateInputSettings(
    settings: DailyInputSettings,
  ): Promise<{ inputSettings: DailyInputSettings }> {
    this.record('updateInputSettings', settings);
    this.assertUsable();
    await Promise.resolve();
    if (settings.audio?.processor?.type === 'noise-cancellation' && this.noiseCancellationError) {
      throw this.noiseCancellationError;
    }
    this.inputSettings = { ...this.inputSettings, ...settings };
    this.emit('input-settings-updated', {
      action: 'input-settings-updated',
      callClientId: this.callClientId,
      inputSettings: this.inputSettings,
    });
    return { inputSettings: this.inputSettings };
  }

  async startRemoteParticipantsAudioLevelObserver(interval?: number): Promise<void> {
    this.record('startRemoteParticipantsAudioLevelObserver', interval);
    this.assertUsable();
    if (interval !== undefined && (typeof interval !== 'number' || interval < 100)) {
      throw new Error('The interval must be a number greater than or equal to 100 milliseconds.');
    }
    this.audioLevelObserverInterval = interval ?? 200;
  }

  sendAppMessage(data: unknown, to = '*'): this {
    this.record('sendAppMessage', data, to);
    this.assertUsable();
    if (this.meetingState !== 'joined-meeting') {
      throw new Error('sendAppMessage() only supported after join.');
    }
    this.appMessages.push({ data, to });
    return this;
  }

  on<T extends DailyEvent>(event: T, handler: (event: DailyEventObject<T>) => void): this {
    let set = this.handlers.get(event);
    if (set === undefined) {
      set = new Set();
      this.handlers.set(event, set);
    }
    set.add(handler as (event: never) => void);
    return this;
  }

  off<T extends DailyEvent>(event: T, handler: (event: DailyEventObject<T>) => void): this {
    this.handlers.get(event)?.delete(handler as (event: never) => void);
    return this;
  }

  /** How many handlers are registered for an event (to check that listeners are removed). */
  listenerCount(event: DailyEvent): number {
    return this.handlers.get(event)?.size ?? 0;
  }

  // ---- the room ----------------------------------------------------------------------------

  /** A remote participant joins (`participant-joined` once the local one has joined). */
  addRemoteParticipant(
    options: { userName?: string; audioTrack?: MediaStreamTrack; sessionId?: string } = {},
  ): DailyParticipant {
    const sessionId = options.sessionId ?? `remote-${this.nextId++}`;
    const remote = participant({
      session_id: sessionId,
      user_name: options.userName ?? 'Vapi Speaker',
      local: false,
      audio: options.audioTrack !== undefined,
    });
    if (options.audioTrack !== undefined) {
      remote.tracks.audio.persistentTrack = options.audioTrack;
      remote.tracks.audio.state = 'loading';
    }
    this.remotes.set(sessionId, remote);
    if (this.meetingState === 'joined-meeting') {
      this.emit('participant-joined', {
        action: 'participant-joined',
        callClientId: this.callClientId,
        participant: remote,
      });
    }
    return remote;
  }

  /** A remote participant leaves: its subscribed track stops first, then `participant-left`. */
  removeRemoteParticipant(sessionId: string): void {
    const remote = this.remotes.get(sessionId);
    if (remote === undefined) return;
    const track = remote.tracks.audio.track;
    if (track !== undefined && this.meetingState === 'joined-meeting') {
      remote.tracks.audio.state = 'off';
      delete remote.tracks.audio.track;
      this.emit('track-stopped', {
        action: 'track-stopped',
        callClientId: this.callClientId,
        participant: remote,
        track,
        type: 'audio',
      });
    }
    this.remotes.delete(sessionId);
    if (this.meetingState === 'joined-meeting') {
      this.emit('participant-left', {
        action: 'participant-left',
        callClientId: this.callClientId,
        participant: remote,
      });
    }
  }

  /** An app message from a remote participant (`app-message`). */
  receiveAppMessage(data: unknown, fromId = 'remote-1'): void {
    this.emit('app-message', {
      action: 'app-message',
      callClientId: this.callClientId,
      data,
      fromId,
    });
  }

  /** One tick of the remote audio level observer (`remote-participants-audio-level`). */
  emitRemoteAudioLevels(levels: Record<string, number>): void {
    this.emit('remote-participants-audio-level', {
      action: 'remote-participants-audio-level',
      callClientId: this.callClientId,
      participantsAudioLevel: levels,
    });
  }

  /** Daily's noise-cancellation processor fails mid-call (`nonfatal-error`). */
  failAudioProcessor(errorMsg = 'audio processor failed'): void {
    this.emit('nonfatal-error', {
      action: 'nonfatal-error',
      callClientId: this.callClientId,
      type: 'audio-processor-error',
      errorMsg,
    });
  }

  /** A fatal error (`error`), after which the meeting is left (`left-meeting`). */
  failFatally(errorMsg = 'connection lost'): void {
    this.meetingState = 'error';
    this.emit('error', { action: 'error', callClientId: this.callClientId, errorMsg });
    this.emit('left-meeting', { action: 'left-meeting', callClientId: this.callClientId });
  }

  /** The room ends (the assistant hung up; the platform deletes the room): `left-meeting`. */
  endMeeting(): void {
    if (this.meetingState !== 'joined-meeting') return;
    for (const id of [...this.remotes.keys()]) this.removeRemoteParticipant(id);
    this.meetingState = 'left-meeting';
    this.emit('left-meeting', { action: 'left-meeting', callClientId: this.callClientId });
  }

  emit<T extends DailyEvent>(event: T, payload: DailyEventObject<T>): void {
    for (const handler of [...(this.handlers.get(event) ?? [])]) {
      (handler as (event: DailyEventObject<T>) => void)(payload);
    }
  }

  // ---- internals ---------------------------------------------------------------------------

  private startAudioIfSubscribed(sessionId: string): void {
    const remote = this.remotes.get(sessionId);
    if (remote === undefined || this.meetingState !== 'joined-meeting') return;
    const audio = remote.tracks.audio;
    const track = audio.persistentTrack;
    if (track === undefined || audio.subscribed !== true || audio.track !== undefined) return;
    audio.track = track;
    audio.state = 'playable';
    this.emit('track-started', {
      action: 'track-started',
      callClientId: this.callClientId,
      participant: remote,
      track,
      type: 'audio',
    });
  }

  private record(method: string, ...args: unknown[]): void {
    this.log.push({ method, args });
  }

  private assertUsable(): void {
    if (this.destroyed) throw new Error('Use after destroy');
  }
}

/** A Daily factory (the default export's `createCallObject`) that makes FakeDailyCalls. */
export class FakeDaily implements DailyFactoryLike {
  readonly created: FakeDailyCall[] = [];
  /** Set to prepare the next call object (e.g. `joinError`). */
  prepare: ((call: FakeDailyCall) => void) | null = null;

  createCallObject(options: DailyFactoryOptions): FakeDailyCall {
    const call = new FakeDailyCall(options, `fake-call-client-${this.created.length + 1}`);
    this.prepare?.(call);
    this.created.push(call);
    return call;
  }

  /** The most recent call object. */
  get last(): FakeDailyCall {
    const call = this.created.at(-1);
    if (call === undefined) throw new Error('No call object was created.');
    return call;
  }

  /** A loader for the transport's `loadDaily` option. */
  readonly loader: DailyLoader = () => Promise.resolve(this);
}

/** A stand-in for a remote MediaStreamTrack (jsdom has none). */
export function fakeMediaStreamTrack(kind: 'audio' | 'video' = 'audio', id = 'track-1') {
  const track = {
    kind,
    id,
    enabled: true,
    readyState: 'live' as MediaStreamTrackState,
    stop() {
      track.readyState = 'ended';
    },
    getSettings: (): MediaTrackSettings => ({}),
  };
  // Only the fields above are read (by the transport and by MediaStream stand-ins).
  return track as unknown as MediaStreamTrack;
}

function audioSubscription(options: DailyTrackSubscriptionOptions): DailyTrackState['subscribed'] {
  if (typeof options === 'boolean' || options === 'staged') return options;
  if (options === 'avatar') return false;
  return options.audio ?? false;
}

function trackState(on: boolean): DailyTrackState {
  return { subscribed: false, state: on ? 'loading' : 'off' };
}

function participant(fields: {
  session_id: string;
  user_name: string;
  local: boolean;
  audio: boolean;
}): DailyParticipant {
  return {
    audio: fields.audio,
    video: false,
    screen: false,
    tracks: {
      audio: fields.local
        ? { subscribed: true, state: fields.audio ? 'playable' : 'off' }
        : trackState(fields.audio),
      video: trackState(false),
      screenAudio: trackState(false),
      screenVideo: trackState(false),
    },
    user_id: `user-${fields.session_id}`,
    user_name: fields.user_name,
    session_id: fields.session_id,
    joined_at: new Date(),
    will_eject_at: new Date(0),
    local: fields.local,
    owner: false,
    permissions: {
      hasPresence: true,
      canSend: true,
      canReceive: { base: true },
      canAdmin: false,
    },
    record: false,
    cam_info: {},
    screen_info: {},
  };
}
