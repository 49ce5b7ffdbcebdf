import { useMemo } from 'react';
import { useProvidedCallService } from '../../app/call-service-context';
import { useClientConfig } from '../../app/client-config';
import type { CallService } from './call-service';
import { createWebCallService } from './web-call-service';

/**
 * The voice-call implementation the booth uses: the one handed down (tests), otherwise the
 * web-call service for the client configuration (unavailable while the server hands out no
 * platform key).
 */
export function useCallService(): CallService {
  const provided = useProvidedCallService();
  const config = useClientConfig();
  return useMemo(() => provided ?? createWebCallService(config), [provided, config]);
}
