import type {
  DailyCallOptions,
  DailyEvent,
  DailyEventObject,
  DailyFactoryOptions,
  DailyInputSettings,
  DailyParticipantUpdateOptions,
  DailyParticipantsObject,
} from '@daily-co/daily-js';

/**
 * The part of daily-js's `DailyCall` the Daily transport uses. The real call object fits
 * it; so does the fake in fake-daily.ts, which the tests use.
 */
export interface DailyCallLike {
  join(options: DailyCallOptions): Promise<unknown>;
  leave(): Promise<void>;
  destroy(): Promise<void>;
  participants(): DailyParticipantsObject;
  updateParticipant(sessionId: string, updates: DailyParticipantUpdateOptions): unknown;
  setLocalAudio(enabled: boolean): unknown;
  localAudio(): boolean;
  updateInputSettings(settings: DailyInputSettings): Promise<unknown>;
  startRemoteParticipantsAudioLevelObserver(interval?: number): Promise<void>;
  sendAppMessage(data: unknown, to?: string): unknown;
  on<T extends DailyEvent>(event: T, handler: (event: DailyEventObject<T>) => void): unknown;
  off<T extends DailyEvent>(event: T, handler: (event: DailyEventObject<T>) => void): unknown;
}

/** The part of daily-js's default export (`Daily`) the transport uses. */
export interface DailyFactoryLike {
  createCallObject(options: DailyFactoryOptions): DailyCallLike;
}

/** Loads daily-js (by default with a dynamic import, so pages without Daily calls skip it). */
export type DailyLoader = () => Promise<DailyFactoryLike>;
