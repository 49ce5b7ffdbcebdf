import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import type { Loaded } from './use-load';

/** A page's loading spinner or error (with Retry); the page itself once its data is there. */
export function PageStatus<T>({
  loaded,
  what,
  retry,
  children,
}: {
  loaded: Loaded<T>;
  /** "the calls": used in the messages. */
  what: string;
  retry: () => void;
  children: (data: T) => ReactNode;
}) {
  if (loaded.state === 'loading') {
    return (
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, py: 4 }} role="status">
        <CircularProgress size={24} aria-hidden="true" />
        <Typography>Loading {what}…</Typography>
      </Box>
    );
  }
  if (loaded.state === 'failed') {
    return (
      <Alert
        severity="error"
        role="alert"
        action={
          <Button color="inherit" onClick={retry}>
            Retry
          </Button>
        }
      >
        Could not load {what}. {loaded.message}
      </Alert>
    );
  }
  return <>{children(loaded.data)}</>;
}

/** The page's heading (the one h1) with an optional action beside it. */
export function PageHeading({ title, action }: { title: string; action?: ReactNode }) {
  return (
    <Box
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'center',
        justifyContent: 'space-between',
        gap: 2,
        mb: 3,
      }}
    >
      <Typography variant="h1" sx={{ fontSize: { xs: '1.5rem', sm: '2rem' } }}>
        {title}
      </Typography>
      {action}
    </Box>
  );
}
