import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '../../app/AppProviders';
import { TEST_CONFIG } from '../../test/render-app';
import { unavailableCallService } from './call-service';
import type { CallService } from './call-service';
import { useCallService } from './use-call-service';

function serviceWith(props: { platformPublicKey: string | null; callService?: CallService }) {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <AppProviders
      config={{ ...TEST_CONFIG, platformPublicKey: props.platformPublicKey }}
      talkDocuments={[]}
      callService={props.callService}
    >
      {children}
    </AppProviders>
  );
  return renderHook(() => useCallService(), { wrapper }).result.current;
}

describe('call service wiring', () => {
  it('says calls are unavailable while the server hands out no platform key', () => {
    expect(serviceWith({ platformPublicKey: null })).toBe(unavailableCallService);
  });

  it('uses the web-call service when the server hands out a platform key', () => {
    const service = serviceWith({ platformPublicKey: 'pk-1' });
    expect(service).not.toBe(unavailableCallService);
    expect(service.start).toEqual(expect.any(Function));
  });

  it('prefers an injected service (tests)', () => {
    const injected: CallService = { start: () => Promise.reject(new Error('fake')) };
    expect(serviceWith({ platformPublicKey: 'pk-1', callService: injected })).toBe(injected);
  });
});
