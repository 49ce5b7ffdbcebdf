import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useLayoutEffect, useRef } from 'react';
import type { TranscriptRole } from './call-service';
import type { Transcript } from './transcript';

export const TRANSCRIPT_LABEL = 'Conversation transcript';
export const TRANSCRIPT_EMPTY = 'What you and the assistant say will appear here.';
export const ROLE_LABELS: Record<TranscriptRole, string> = { user: 'You', assistant: 'Assistant' };

/** Hidden on screen, read by screen readers. */
const visuallyHidden = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: '1px',
} as const;

/** Within this many pixels of the bottom, new lines keep the newest line in view. */
const STICK_TO_BOTTOM_PX = 48;

function Line({ role, text, partial }: { role: TranscriptRole; text: string; partial: boolean }) {
  return (
    <Box
      component={partial ? 'div' : 'li'}
      data-partial={partial ? 'true' : undefined}
      sx={{ py: 0.75 }}
    >
      <Typography
        component="span"
        variant="body2"
        sx={{
          display: 'block',
          fontWeight: 700,
          color: role === 'assistant' ? 'primary.main' : 'text.primary',
        }}
      >
        {ROLE_LABELS[role]}
        <Box component="span" sx={visuallyHidden}>
          :{' '}
        </Box>
      </Typography>
      <Typography
        component="span"
        sx={{
          display: 'block',
          overflowWrap: 'anywhere',
          ...(partial && { fontStyle: 'italic', color: 'text.secondary' }),
        }}
      >
        {text}
      </Typography>
    </Box>
  );
}

/**
 * The live transcript of both sides. Finished lines are a polite live region (role="log"), so
 * screen readers announce each once; words still being recognised follow in italics outside the
 * announcements (they change several times a second) until their final line arrives. The box
 * scrolls and keeps the newest line in view unless the visitor has scrolled up to read.
 */
export function TranscriptLog({
  transcript,
  labelledBy,
}: {
  transcript: Transcript;
  /** The id of the heading that names the scrolling box. */
  labelledBy: string;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const { lines, partial } = transcript;
  const partials = (['user', 'assistant'] as const).filter((role) => partial[role] != null);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && atBottom.current) element.scrollTop = element.scrollHeight;
  }, [transcript]);

  return (
    <Box
      ref={scroller}
      role="region"
      aria-labelledby={labelledBy}
      // Focusable so keyboard users can scroll it.
      tabIndex={0}
      onScroll={(event) => {
        const element = event.currentTarget;
        atBottom.current =
          element.scrollHeight - element.scrollTop - element.clientHeight <= STICK_TO_BOTTOM_PX;
      }}
      sx={{
        maxHeight: { xs: 240, sm: 320 },
        overflowY: 'auto',
        px: 2,
        py: 1,
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        bgcolor: 'background.default',
        '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main' },
      }}
    >
      <div role="log" aria-live="polite" aria-label={TRANSCRIPT_LABEL}>
        <Box component="ol" sx={{ listStyle: 'none', m: 0, p: 0 }}>
          {lines.map((line) => (
            <Line key={line.id} role={line.role} text={line.text} partial={false} />
          ))}
        </Box>
      </div>
      {partials.map((role) => (
        <Line key={role} role={role} text={partial[role] ?? ''} partial />
      ))}
      {lines.length === 0 && partials.length === 0 && (
        <Typography color="text.secondary" sx={{ py: 0.75 }}>
          {TRANSCRIPT_EMPTY}
        </Typography>
      )}
    </Box>
  );
}
