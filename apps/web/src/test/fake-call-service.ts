import { vi } from 'vitest';
import type {
  ActiveCall,
  CallEvent,
  CallListener,
  CallService,
} from '../features/call-booth/call-service';

/**
 * A CallService for tests. `start` answers with `outcome`: a call (resolves with an ActiveCall
 * whose id is `callId`) or an error to reject with. `emit` plays an event to the booth.
 */
export function fakeCallService(outcome: { callId: string | null } | { error: Error }) {
  let listener: CallListener | null = null;
  const stop = vi.fn<ActiveCall['stop']>(() => Promise.resolve());
  const start = vi.fn<CallService['start']>((_request, onEvent) => {
    listener = onEvent;
    if ('error' in outcome) return Promise.reject(outcome.error);
    const call: ActiveCall = { id: outcome.callId, stop };
    return Promise.resolve(call);
  });
  return {
    service: { start } satisfies CallService,
    start,
    stop,
    emit(event: CallEvent) {
      if (!listener) throw new Error('The booth has not started a call yet.');
      listener(event);
    },
  };
}
