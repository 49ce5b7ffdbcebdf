import { createContext, use, useMemo } from 'react';
import type { ReactNode } from 'react';
import { unavailableCallService } from '../features/call-booth/call-service';
import type { CallService } from '../features/call-booth/call-service';
import { createWebCallService } from '../features/call-booth/web-call-service';
import { useClientConfig } from './client-config';

const CallServiceContext = createContext<CallService>(unavailableCallService);

/**
 * Provides the voice-call implementation: `service` when given (tests), otherwise the web-call
 * service for the client configuration (unavailable while the server hands out no platform key).
 * Must sit inside `ClientConfigProvider`.
 */
export function CallServiceProvider({
  service,
  children,
}: {
  service?: CallService;
  children: ReactNode;
}) {
  const config = useClientConfig();
  const configured = useMemo(() => createWebCallService(config), [config]);
  return <CallServiceContext value={service ?? configured}>{children}</CallServiceContext>;
}

/** The voice-call implementation the booth uses. */
export function useCallService(): CallService {
  return use(CallServiceContext);
}
