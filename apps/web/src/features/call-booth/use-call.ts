import { useCallback, useEffect, useRef, useState } from 'react';
import { useCallService } from '../../app/call-service-context';
import { logger } from '../../lib/logger';
import { CallUnavailableError } from './call-service';
import type { ActiveCall, CallEvent } from './call-service';

export const CALL_MESSAGES = {
  unavailableTitle: 'Voice calls are not available yet',
  unavailable:
    'Voice calls are not available on this server yet. Please contact the clinic another way for now.',
  microphone: 'Microphone permission is needed to make calls. Please enable it in your settings.',
  duringCall: 'The call had a problem: ',
} as const;

/**
 * idle: no call; connecting: Start Call pressed; active: talking; ending: hanging up;
 * ended: the call is over (the feedback dialog is up).
 */
export type CallPhase = 'idle' | 'connecting' | 'active' | 'ending' | 'ended';

export interface CallNotice {
  severity: 'info' | 'warning' | 'error';
  title?: string;
  text: string;
}

function isUnavailable(error: unknown): boolean {
  return (
    error instanceof CallUnavailableError ||
    (error instanceof Error && error.name === 'CallUnavailableError')
  );
}

/** The booth's call: start, end (by the visitor or the assistant), and what to tell the visitor. */
export function useCall(assistantId: string | null) {
  const service = useCallService();
  const [phase, setPhase] = useState<CallPhase>('idle');
  const [notice, setNotice] = useState<CallNotice | null>(null);
  const [callId, setCallId] = useState<string | null>(null);
  const callRef = useRef<ActiveCall | null>(null);
  const phaseRef = useRef<CallPhase>('idle');
  /** The call ended (a call-end event) before `start` resolved. */
  const endedEarly = useRef(false);

  const moveTo = useCallback((next: CallPhase) => {
    phaseRef.current = next;
    setPhase(next);
  }, []);

  const end = useCallback(async () => {
    const call = callRef.current;
    if (call == null || phaseRef.current !== 'active') return;
    moveTo('ending');
    try {
      await call.stop();
    } catch (error) {
      logger.warn('Hanging up reported an error', error);
    }
    logger.info('Call ended', { callId: call.id });
    moveTo('ended');
  }, [moveTo]);

  const onEvent = useCallback(
    (event: CallEvent) => {
      switch (event.type) {
        case 'call-start':
          logger.debug('The assistant is ready');
          break;
        case 'call-end':
          logger.info('The call was ended', event.reason ?? '');
          if (phaseRef.current === 'connecting') endedEarly.current = true;
          else void end();
          break;
        case 'error':
          logger.error('Error during the call', event.error);
          if (phaseRef.current === 'active') {
            setNotice({
              severity: 'warning',
              text: CALL_MESSAGES.duringCall + event.error.message,
            });
          }
          break;
        case 'volume-level':
          break;
      }
    },
    [end],
  );

  const start = useCallback(async () => {
    if (assistantId == null || phaseRef.current !== 'idle') return;
    setNotice(null);
    endedEarly.current = false;
    moveTo('connecting');
    try {
      const call = await service.start({ assistantId }, onEvent);
      callRef.current = call;
      setCallId(call.id);
      logger.info('Call started', { callId: call.id });
      moveTo('active');
      if (endedEarly.current) await end();
    } catch (error) {
      if (isUnavailable(error)) {
        logger.info('Voice calls are not available', error);
        setNotice({
          severity: 'info',
          title: CALL_MESSAGES.unavailableTitle,
          text: CALL_MESSAGES.unavailable,
        });
      } else {
        logger.error('Could not start the call', error);
        setNotice({ severity: 'error', text: CALL_MESSAGES.microphone });
      }
      moveTo('idle');
    }
  }, [assistantId, service, onEvent, moveTo, end]);

  // Leaving the booth mid-call hangs up.
  useEffect(() => {
    return () => {
      const call = callRef.current;
      if (call && (phaseRef.current === 'active' || phaseRef.current === 'connecting')) {
        void call.stop().catch((error: unknown) => logger.warn('Hanging up failed', error));
      }
    };
  }, []);

  return { phase, notice, callId, start, end };
}
