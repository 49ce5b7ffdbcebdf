import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CallEndRounded from '@mui/icons-material/CallEndRounded';
import CallRounded from '@mui/icons-material/CallRounded';
import idleImage from './images/assistant-idle.svg';
import talkingImage from './images/assistant-talking.svg';
import type { CallPhase } from './use-call';

export const CONNECTING_LABEL = 'Connecting…';

export const CALL_GUIDANCE: Record<CallPhase, string> = {
  idle: 'Press Start Call and allow the microphone when your browser asks. Then speak normally; the assistant listens and answers.',
  connecting: 'Connecting to the assistant. If your browser asks for the microphone, allow it.',
  active:
    'You are connected. Speak normally and pause to let the assistant answer. Press End Call when you are done.',
  ending: 'Ending the call…',
  ended: 'The call has ended. Thank you!',
};

interface CallControlProps {
  phase: CallPhase;
  onStart: () => void;
  onEnd: () => void;
}

/** The picture, the Start Call / End Call button and a line of guidance for each state. */
export function CallControl({ phase, onStart, onEnd }: CallControlProps) {
  const talking = phase === 'active' || phase === 'ending';
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
        ) : talking ? (
          <Box
            component="img"
            src={talkingImage}
            alt="The assistant is talking"
            width={360}
            height={200}
            sx={{ display: 'block', maxWidth: '100%', height: 'auto' }}
          />
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
      <Typography aria-live="polite" color="text.secondary" sx={{ maxWidth: 420 }}>
        {CALL_GUIDANCE[phase]}
      </Typography>
      {talking ? (
        <Button
          variant="contained"
          color="error"
          size="large"
          startIcon={<CallEndRounded aria-hidden="true" />}
          onClick={onEnd}
          disabled={phase === 'ending'}
          sx={{ minWidth: 200, minHeight: 48 }}
        >
          End Call
        </Button>
      ) : (
        <Button
          variant="contained"
          size="large"
          startIcon={<CallRounded aria-hidden="true" />}
          onClick={onStart}
          disabled={phase !== 'idle'}
          sx={{ minWidth: 200, minHeight: 48 }}
        >
          Start Call
        </Button>
      )}
    </Stack>
  );
}
