import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import type { ReactNode } from 'react';
import type { ClientConfig, TalkDocument } from '@talkbooth/protocol';
import type { CallService } from '../features/call-booth/call-service';
import { CallServiceProvider } from './call-service-context';
import { ClientConfigProvider } from './client-config';
import { ProductContentProvider } from './product-content';
import { theme } from './theme';

export interface AppProvidersProps {
  children: ReactNode;
  /** Fixed configuration instead of `GET /api/client-config` (tests). */
  config?: ClientConfig;
  /** Fixed talk-collection documents instead of fetching them (tests). */
  talkDocuments?: TalkDocument[];
  /**
   * The voice-call implementation (tests); by default the web-call service built from the
   * client configuration (calls are unavailable without a platform public key).
   */
  callService?: CallService;
}

export function AppProviders({ children, config, talkDocuments, callService }: AppProvidersProps) {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <ClientConfigProvider config={config}>
        <ProductContentProvider documents={talkDocuments}>
          <CallServiceProvider service={callService}>{children}</CallServiceProvider>
        </ProductContentProvider>
      </ClientConfigProvider>
    </ThemeProvider>
  );
}
