import { createContext, use, useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import type { ClientConfig } from '@talkbooth/protocol';
import { requestJson } from '../lib/api-client';
import { logger } from '../lib/logger';
import { parseClientConfig } from '../lib/wire-checks';

/** What the app uses until `GET /api/client-config` answers (or when it cannot). */
export const DEFAULT_CLIENT_CONFIG: ClientConfig = {
  product: 'medibrief',
  productName: 'medibrief',
  talkHomeUrl: '/',
  platformBaseUrl: '/platform',
  platformPublicKey: null,
};

export interface ClientConfigState {
  config: ClientConfig;
  /** True once the server's configuration arrived, or failed and the defaults stay. */
  settled: boolean;
}

const ClientConfigContext = createContext<ClientConfigState>({
  config: DEFAULT_CLIENT_CONFIG,
  settled: true,
});

export async function fetchClientConfig(): Promise<ClientConfig> {
  const config = parseClientConfig(await requestJson('/api/client-config'));
  if (!config) throw new TypeError('The client configuration has an unexpected shape.');
  return config;
}

interface ClientConfigProviderProps {
  children: ReactNode;
  /** A fixed configuration (tests); when given, nothing is fetched. */
  config?: ClientConfig;
}

/** Loads the run-time configuration once; the app renders with defaults meanwhile. */
export function ClientConfigProvider({ children, config }: ClientConfigProviderProps) {
  const [loaded, setLoaded] = useState<ClientConfigState | null>(null);

  useEffect(() => {
    if (config) return;
    let active = true;
    fetchClientConfig().then(
      (value) => {
        logger.debug('Client configuration loaded', value);
        if (active) setLoaded({ config: value, settled: true });
      },
      (error: unknown) => {
        logger.warn('Could not load the client configuration; using defaults', error);
        if (active) setLoaded({ config: DEFAULT_CLIENT_CONFIG, settled: true });
      },
    );
    return () => {
      active = false;
    };
  }, [config]);

  const value: ClientConfigState = config
    ? { config, settled: true }
    : (loaded ?? { config: DEFAULT_CLIENT_CONFIG, settled: false });

  return <ClientConfigContext value={value}>{children}</ClientConfigContext>;
}

export function useClientConfigState(): ClientConfigState {
  return use(ClientConfigContext);
}

export function useClientConfig(): ClientConfig {
  return use(ClientConfigContext).config;
}
