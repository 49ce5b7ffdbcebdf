import { useCallback, useEffect, useRef, useState } from 'react';
import { useCallService } from './use-call-service';
import { logger } from '../../lib/logger';
import { endedReasonNote } from './ended-reasons';
import { CallRefusedError, CallUnavailableError } from './call-service';
import type { ActiveCall, CallEvent } from './call-service';
import { createLevelStore } from './level-store';
import { EMPTY_TRANSCRIPT, addTranscript } from './transcript';
import type { Transcript } from './transcript';

export const CALL_MESSAGES = {
  unavailableTitle: 'Voice calls are not available yet',
  unavailable:
    'Voice calls are not available on this server yet. Please contact the clinic another way for now.',
  microphone: 'Microphone permission is needed to make calls. Please enable it in your settings.',
  duringCall: 'The call had a problem: ',
  muteFailed: 'The microphone could not be switched. Please try again.',
  refusedTitle: 'The call could not start',
} as const;

/**
 * idle: no call; connecting: Start Call pressed; active: talking; ending: hanging up;
 * lost: the connection dropped mid-call; ended: the call is over (the feedback dialog is up).
 */
export type CallPhase = 'idle' | 'connecting' | 'active' | 'ending' | 'lost' | 'ended';

export interface CallNotice {
  severity: 'info' | 'warning' | 'error';
  title?: string;
  text: string;
}

function isRefused(error: unknown): error is Error {
  return (
    error instanceof CallRefusedError ||
    (error instanceof Error && error.name === 'CallRefusedError')
  );
}

function isUnavailable(error: unknown): boolean {
  return (
    error instanceof CallUnavailableError ||
    (error instanceof Error && error.name === 'CallUnavailableError')
  );
}

/**
 * The booth's call: start, end (by the visitor or the assistant), what the call reports while
 * it runs (transcript, speaking, voice level, mute, duration), and what to tell the visitor.
 */
export function useCall(assistantId: string | null, publicKey: string | null = null) {
  const service = useCallService();
  const [endedReason, setEndedReason] = useState<string | undefined>(undefined);
  const [phase, setPhase] = useState<CallPhase>('idle');
  const [notice, setNotice] = useState<CallNotice | null>(null);
  const [callId, setCallId] = useState<string | null>(null);
  const [transcript, setTranscript] = useState<Transcript>(EMPTY_TRANSCRIPT);
  const [speaking, setSpeaking] = useState(false);
  const [muted, setMuted] = useState(false);
  /** When the call became active (ms since the epoch), for the elapsed time. */
  const [startedAt, setStartedAt] = useState<number | null>(null);
  const [levels] = useState(createLevelStore);
  const callRef = useRef<ActiveCall | null>(null);
  const phaseRef = useRef<CallPhase>('idle');
  /** The call ended (a call-end event) before `start` resolved. */
  const endedEarly = useRef(false);
  /** The booth is gone: a call that connects afterwards is hung up at once. */
  const disposed = useRef(false);

  const moveTo = useCallback((next: CallPhase) => {
    phaseRef.current = next;
    setPhase(next);
  }, []);

  const resetLiveState = useCallback(() => {
    setSpeaking(false);
    levels.set(0);
  }, [levels]);

  const end = useCallback(async () => {
    const call = callRef.current;
    if (call == null || phaseRef.current !== 'active') return;
    moveTo('ending');
    resetLiveState();
    try {
      await call.stop();
    } catch (error) {
      logger.warn('Hanging up reported an error', error);
    }
    logger.info('Call ended', { callId: call.id });
    moveTo('ended');
  }, [moveTo, resetLiveState]);

  /** After a lost connection: finish with the feedback dialog. */
  const finish = useCallback(() => {
    if (phaseRef.current === 'lost') moveTo('ended');
  }, [moveTo]);

  const onEvent = useCallback(
    (event: CallEvent) => {
      switch (event.type) {
        case 'call-start':
          logger.debug('The assistant is ready');
          break;
        case 'call-end':
          logger.info('The call was ended', event.reason ?? '');
          setEndedReason(event.reason);
          if (phaseRef.current === 'connecting') endedEarly.current = true;
          else void end();
          break;
        case 'connection-lost': {
          logger.warn('The connection to the assistant was lost', { callId: callRef.current?.id });
          if (phaseRef.current !== 'active' && phaseRef.current !== 'connecting') break;
          const call = callRef.current;
          moveTo('lost');
          // The lost-connection alert says it all; an earlier problem notice would compete.
          setNotice(null);
          resetLiveState();
          setMuted(false);
          // The call is over already; this only makes sure the microphone is released.
          void call?.stop().catch((error: unknown) => logger.warn('Hanging up failed', error));
          break;
        }
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
          levels.set(event.level);
          break;
        case 'speech-start':
          setSpeaking(true);
          break;
        case 'speech-end':
          setSpeaking(false);
          levels.set(0);
          break;
        case 'transcript':
          setTranscript((current) =>
            addTranscript(current, event.role, event.transcriptType, event.text),
          );
          break;
      }
    },
    [end, levels, moveTo, resetLiveState],
  );

  const start = useCallback(async () => {
    const from = phaseRef.current;
    if (assistantId == null || (from !== 'idle' && from !== 'lost')) return;
    setNotice(null);
    setCallId(null);
    setTranscript(EMPTY_TRANSCRIPT);
    setMuted(false);
    setStartedAt(null);
    resetLiveState();
    callRef.current = null;
    endedEarly.current = false;
    moveTo('connecting');
    try {
      const call = await service.start(
        publicKey === null ? { assistantId } : { assistantId, publicKey },
        onEvent,
      );
      if (disposed.current) {
        await call.stop();
        return;
      }
      callRef.current = call;
      setCallId(call.id);
      logger.info('Call started', { callId: call.id });
      if (phaseRef.current === 'lost') return;
      setStartedAt(Date.now());
      setMuted(call.isMuted());
      moveTo('active');
      if (endedEarly.current) await end();
    } catch (error) {
      if (disposed.current) return;
      if (isUnavailable(error)) {
        logger.info('Voice calls are not available', error);
        setNotice({
          severity: 'info',
          title: CALL_MESSAGES.unavailableTitle,
          text: CALL_MESSAGES.unavailable,
        });
      } else if (isRefused(error)) {
        logger.warn('The call server refused the call', error);
        setNotice({ severity: 'warning', title: CALL_MESSAGES.refusedTitle, text: error.message });
      } else {
        logger.error('Could not start the call', error);
        setNotice({ severity: 'error', text: CALL_MESSAGES.microphone });
      }
      moveTo('idle');
    }
  }, [assistantId, publicKey, service, onEvent, moveTo, end, resetLiveState]);

  const toggleMute = useCallback(() => {
    const call = callRef.current;
    if (call == null || phaseRef.current !== 'active') return;
    try {
      call.setMuted(!call.isMuted());
      setMuted(call.isMuted());
    } catch (error) {
      logger.error('Could not switch the microphone', error);
      setNotice({ severity: 'warning', text: CALL_MESSAGES.muteFailed });
    }
  }, []);

  // Leaving the booth mid-call hangs up.
  useEffect(() => {
    disposed.current = false;
    return () => {
      disposed.current = true;
      const call = callRef.current;
      if (call && (phaseRef.current === 'active' || phaseRef.current === 'connecting')) {
        void call.stop().catch((error: unknown) => logger.warn('Hanging up failed', error));
      }
    };
  }, []);

  return {
    phase,
    /** Why the call ended, for the visitor, when it was not their doing. */
    endedNote: endedReasonNote(endedReason),
    notice,
    callId,
    transcript,
    speaking,
    muted,
    startedAt,
    levels,
    start,
    end,
    finish,
    toggleMute,
  };
}
