import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CallEndRounded from '@mui/icons-material/CallEndRounded';
import CallRounded from '@mui/icons-material/CallRounded';
import HearingRounded from '@mui/icons-material/HearingRounded';
import MicOffRounded from '@mui/icons-material/MicOffRounded';
import MicRounded from '@mui/icons-material/MicRounded';
import RateReviewOutlined from '@mui/icons-material/RateReviewOutlined';
import RecordVoiceOverRounded from '@mui/icons-material/RecordVoiceOverRounded';
import { useEffect, useRef } from 'react';
import { CallTimer } from './CallTimer';
import { CallVisual } from './CallVisual';
import idleImage from './images/assistant-idle.svg';
import type { LevelStore } from './level-store';
import type { CallPhase } from './use-call';

export const CONNECTING_LABEL = 'Connecting…';

export const CALL_GUIDANCE: Record<CallPhase, string> = {
  idle: 'Press Start Call and allow the microphone when your browser asks. Then speak normally; the assistant listens and answers.',
  connecting: 'Connecting to the assistant. If your browser asks for the microphone, allow it.',
  active:
    'You are connected. Speak normally and pause to let the assistant answer. Press End Call when you are done.',
  ending: 'Ending the call…',
  lost: 'The call has stopped. What was said so far stays below.',
  ended: 'The call has ended. Thank you!',
};

export const CALL_STATUS = {
  speaking: 'Assistant is speaking…',
  listening: 'Listening…',
} as const;

export const MUTE_LABELS = { mute: 'Mute microphone', unmute: 'Unmute microphone' } as const;
export const MUTED_HINT =
  'Your microphone is muted: the assistant cannot hear you. Press Unmute microphone to talk again.';

export const CONNECTION_LOST = {
  title: 'Connection lost',
  text: 'The connection to the assistant was lost. Check your internet connection, then press Start a new call to try again, or press Leave feedback to finish.',
  restart: 'Start a new call',
  finish: 'Leave feedback',
} as const;

interface CallControlProps {
  phase: CallPhase;
  /** The assistant is speaking (else it is listening). */
  speaking: boolean;
  muted: boolean;
  /** When the call became active (ms since the epoch). */
  startedAt: number | null;
  levels: LevelStore;
  onStart: () => void;
  onEnd: () => void;
  onToggleMute: () => void;
  /** After a lost connection: go on to the feedback dialog. */
  onFinish: () => void;
}

const BUTTON_SX = { minWidth: 200, minHeight: 48 } as const;

/**
 * The picture, the call's status, the buttons and a line of guidance for each state:
 * ready (Start Call), connecting, in a call (speaking or listening, time, mute, End Call),
 * and a lost connection (start a new call, or leave feedback).
 */
export function CallControl(props: CallControlProps) {
  const { phase, speaking, muted, startedAt, levels } = props;
  const inCall = phase === 'active' || phase === 'ending';
  return (
    <Stack spacing={3} sx={{ alignItems: 'center', textAlign: 'center' }}>
      <Box
        sx={{
          width: '100%',
          minHeight: 200,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
        }}
      >
        {phase === 'connecting' ? (
          <CircularProgress size={56} aria-label={CONNECTING_LABEL} />
        ) : inCall ? (
          <CallVisual levels={levels} />
        ) : phase === 'lost' ? (
          <ConnectionLostAlert />
        ) : (
          <Box
            component="img"
            src={idleImage}
            alt="The assistant, ready to talk"
            width={160}
            height={160}
            sx={{ display: 'block', maxWidth: '100%', height: 'auto' }}
          />
        )}
      </Box>
      {phase === 'active' && (
        <Stack
          direction="row"
          spacing={3}
          sx={{ alignItems: 'center', justifyContent: 'center', flexWrap: 'wrap', rowGap: 1 }}
        >
          <Stack
            role="status"
            direction="row"
            spacing={1}
            sx={{ alignItems: 'center', color: speaking ? 'primary.main' : 'text.primary' }}
          >
            {speaking ? (
              <RecordVoiceOverRounded aria-hidden="true" />
            ) : (
              <HearingRounded aria-hidden="true" />
            )}
            <Typography component="span" sx={{ fontWeight: 600 }}>
              {speaking ? CALL_STATUS.speaking : CALL_STATUS.listening}
            </Typography>
          </Stack>
          {startedAt != null && <CallTimer key={startedAt} startedAt={startedAt} />}
        </Stack>
      )}
      <Typography aria-live="polite" color="text.secondary" sx={{ maxWidth: 420 }}>
        {CALL_GUIDANCE[phase]}
      </Typography>
      {phase === 'active' && muted && (
        <Typography aria-live="polite" sx={{ maxWidth: 420, fontWeight: 600 }}>
          {MUTED_HINT}
        </Typography>
      )}
      <CallButtons {...props} />
    </Stack>
  );
}

function CallButtons({ phase, muted, onStart, onEnd, onToggleMute, onFinish }: CallControlProps) {
  const restart = useRef<HTMLButtonElement>(null);

  // The End Call button the visitor may have focused is gone: offer the next step instead.
  useEffect(() => {
    if (phase === 'lost') restart.current?.focus();
  }, [phase]);

  if (phase === 'active' || phase === 'ending') {
    return (
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ alignItems: 'center', justifyContent: 'center' }}
      >
        <Button
          variant="outlined"
          size="large"
          aria-pressed={muted}
          startIcon={
            muted ? <MicOffRounded aria-hidden="true" /> : <MicRounded aria-hidden="true" />
          }
          onClick={onToggleMute}
          disabled={phase === 'ending'}
          sx={BUTTON_SX}
        >
          {muted ? MUTE_LABELS.unmute : MUTE_LABELS.mute}
        </Button>
        <Button
          variant="contained"
          color="error"
          size="large"
          startIcon={<CallEndRounded aria-hidden="true" />}
          onClick={onEnd}
          disabled={phase === 'ending'}
          sx={BUTTON_SX}
        >
          End Call
        </Button>
      </Stack>
    );
  }
  if (phase === 'lost') {
    return (
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ alignItems: 'center', justifyContent: 'center' }}
      >
        <Button
          ref={restart}
          variant="contained"
          size="large"
          startIcon={<CallRounded aria-hidden="true" />}
          onClick={onStart}
          sx={BUTTON_SX}
        >
          {CONNECTION_LOST.restart}
        </Button>
        <Button
          variant="outlined"
          size="large"
          startIcon={<RateReviewOutlined aria-hidden="true" />}
          onClick={onFinish}
          sx={BUTTON_SX}
        >
          {CONNECTION_LOST.finish}
        </Button>
      </Stack>
    );
  }
  return (
    <Button
      variant="contained"
      size="large"
      startIcon={<CallRounded aria-hidden="true" />}
      onClick={onStart}
      disabled={phase !== 'idle'}
      sx={BUTTON_SX}
    >
      Start Call
    </Button>
  );
}

function ConnectionLostAlert() {
  return (
    <Alert severity="error" role="alert" sx={{ textAlign: 'left', width: '100%', maxWidth: 520 }}>
      <AlertTitle>{CONNECTION_LOST.title}</AlertTitle>
      {CONNECTION_LOST.text}
    </Alert>
  );
}
