import { vi } from 'vitest';
import type {
  ActiveCall,
  CallEvent,
  CallListener,
  CallService,
} from '../features/call-booth/call-service';

type Outcome =
  /** `start` resolves with a call whose id is `callId`; with `deferred`, only on `connect()`. */
  | { callId: string | null; deferred?: boolean }
  /** `start` rejects with `error`. */
  | { error: Error };

/**
 * A CallService for tests. `start` answers with `outcome`; `emit` plays an event to the booth;
 * `setMuted` / `isMuted` keep a mute flag like the real call.
 */
export function fakeCallService(outcome: Outcome) {
  let listener: CallListener | null = null;
  let muted = false;
  let pending: { resolve: () => void; reject: (error: Error) => void } | null = null;
  const stop = vi.fn<ActiveCall['stop']>(() => Promise.resolve());
  const setMuted = vi.fn<ActiveCall['setMuted']>((value) => {
    muted = value;
  });
  const isMuted = vi.fn<ActiveCall['isMuted']>(() => muted);
  const start = vi.fn<CallService['start']>((_request, onEvent) => {
    listener = onEvent;
    if ('error' in outcome) return Promise.reject(outcome.error);
    const call: ActiveCall = { id: outcome.callId, stop, setMuted, isMuted };
    if (!outcome.deferred) return Promise.resolve(call);
    return new Promise<ActiveCall>((resolve, reject) => {
      pending = { resolve: () => resolve(call), reject };
    });
  });
  return {
    service: { start } satisfies CallService,
    start,
    stop,
    setMuted,
    isMuted,
    emit(event: CallEvent) {
      if (!listener) throw new Error('The booth has not started a call yet.');
      listener(event);
    },
    /** Deferred outcome: the call connects now. */
    connect() {
      if (!pending) throw new Error('No call is connecting.');
      pending.resolve();
      pending = null;
    },
    /** Deferred outcome: connecting fails now. */
    fail(error: Error) {
      if (!pending) throw new Error('No call is connecting.');
      pending.reject(error);
      pending = null;
    },
  };
}
