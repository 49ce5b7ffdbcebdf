import { createContext, use } from 'react';
import type { ReactNode } from 'react';
import type { CallService } from '../features/call-booth/call-service';

const CallServiceContext = createContext<CallService | null>(null);

/**
 * Hands a voice-call implementation to the booth (tests, the console's test call). Without one
 * the booth builds the web-call service from the client configuration (use-call-service.ts), in
 * its own chunk: the pages without a booth do not carry it.
 */
export function CallServiceProvider({
  service,
  children,
}: {
  service?: CallService;
  children: ReactNode;
}) {
  return <CallServiceContext value={service ?? null}>{children}</CallServiceContext>;
}

/** The implementation handed down by `CallServiceProvider`, if any. */
export function useProvidedCallService(): CallService | null {
  return use(CallServiceContext);
}
