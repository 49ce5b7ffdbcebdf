import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { logger } from '../lib/logger';
import { PAGE_COLUMN, stackColumn } from './page-column';

/**
 * Shown when a screen fails while rendering: a plain message and a way back. Typography and
 * Button like NotFoundPage, not Alert, which the code-entry page does not carry (issue 14).
 */
export function ErrorScreen({ error }: { error: unknown }) {
  useEffect(() => {
    logger.error('A screen failed to render', error);
  }, [error]);
  return (
    <Box component="main" sx={{ ...PAGE_COLUMN, py: 5 }}>
      <Box role="alert" sx={stackColumn(2)}>
        <Typography variant="h1">Something went wrong</Typography>
        <Typography>This page ran into a problem. Please start again.</Typography>
        <div>
          {/* A full page load: the app may be in a broken state. */}
          <Button variant="contained" href="/">
            Start again
          </Button>
        </div>
      </Box>
    </Box>
  );
}
