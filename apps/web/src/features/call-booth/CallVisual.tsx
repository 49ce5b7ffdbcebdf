import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useSyncExternalStore } from 'react';
import talkingImage from './images/assistant-talking.svg';
import type { LevelStore } from './level-store';

export const TALKING_ALT = 'The assistant is talking';
export const VOICE_LEVEL_LABEL = "Assistant's voice level";

/**
 * The talking picture (360x200), moving with the assistant's voice level, and a level meter.
 * With reduced motion the picture stays still; the meter still shows the voice, without easing.
 */
export function CallVisual({ levels }: { levels: LevelStore }) {
  const level = useSyncExternalStore(levels.subscribe, levels.get);
  const reduceMotion = useMediaQuery('(prefers-reduced-motion: reduce)');
  const percent = Math.round(level * 100);

  return (
    <Stack spacing={1.5} sx={{ alignItems: 'center', width: '100%' }}>
      <Box
        component="img"
        src={talkingImage}
        alt={TALKING_ALT}
        width={360}
        height={200}
        data-level={percent}
        // Inline style: the level changes ten times a second, too often for generated classes.
        style={
          reduceMotion
            ? undefined
            : {
                transform: `scale(${(0.94 + 0.1 * level).toFixed(3)})`,
                opacity: (0.75 + 0.25 * level).toFixed(3),
              }
        }
        sx={{
          display: 'block',
          maxWidth: '100%',
          height: 'auto',
          transition: reduceMotion ? 'none' : 'transform 100ms linear, opacity 100ms linear',
        }}
      />
      <Box
        role="meter"
        aria-label={VOICE_LEVEL_LABEL}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent}%`}
        sx={{
          width: 200,
          maxWidth: '80%',
          height: 8,
          borderRadius: 4,
          bgcolor: 'action.hover',
          overflow: 'hidden',
        }}
      >
        <Box
          style={{ width: `${percent}%` }}
          sx={{
            height: '100%',
            bgcolor: 'primary.main',
            borderRadius: 4,
            transition: reduceMotion ? 'none' : 'width 100ms linear',
          }}
        />
      </Box>
    </Stack>
  );
}
