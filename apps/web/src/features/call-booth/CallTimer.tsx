import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import TimerOutlined from '@mui/icons-material/TimerOutlined';
import { useEffect, useState } from 'react';

/** Elapsed seconds as mm:ss (minutes keep counting past 59: "75:02"). */
export function formatElapsed(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const minutes = Math.floor(seconds / 60);
  return `${String(minutes).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
}

export const callTimeLabel = (elapsed: string) => `Call time ${elapsed}`;

function secondsSince(startedAt: number): number {
  return Math.max(0, Math.floor((Date.now() - startedAt) / 1000));
}

/**
 * How long the call has been running, e.g. "01:23" (named "Call time 01:23"). Give it a new
 * `key` for a new call.
 */
export function CallTimer({ startedAt }: { startedAt: number }) {
  const [seconds, setSeconds] = useState(() => secondsSince(startedAt));

  useEffect(() => {
    // A few ticks a second keep the display within a quarter second of the real time; React
    // skips the render when the second has not changed.
    const timer = setInterval(() => setSeconds(secondsSince(startedAt)), 250);
    return () => clearInterval(timer);
  }, [startedAt]);

  const elapsed = formatElapsed(seconds);
  return (
    // role="timer" is not announced on every change; its name tells what the digits mean.
    <Stack
      role="timer"
      aria-label={callTimeLabel(elapsed)}
      direction="row"
      spacing={0.75}
      sx={{ alignItems: 'center', color: 'text.secondary' }}
    >
      <TimerOutlined fontSize="small" aria-hidden="true" />
      <Typography component="span" sx={{ fontVariantNumeric: 'tabular-nums', fontWeight: 600 }}>
        {elapsed}
      </Typography>
    </Stack>
  );
}
