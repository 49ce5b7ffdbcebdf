import { createContext, use } from 'react';
import type { ReactNode } from 'react';
import { unavailableCallService } from '../features/call-booth/call-service';
import type { CallService } from '../features/call-booth/call-service';

const CallServiceContext = createContext<CallService>(unavailableCallService);

export function CallServiceProvider({
  service,
  children,
}: {
  service?: CallService;
  children: ReactNode;
}) {
  return (
    <CallServiceContext value={service ?? unavailableCallService}>{children}</CallServiceContext>
  );
}

/** The voice-call implementation; `unavailableCallService` until the web-call client lands. */
export function useCallService(): CallService {
  return use(CallServiceContext);
}
