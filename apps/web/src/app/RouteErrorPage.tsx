import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import { logger } from '../lib/logger';

/** Shown when a screen fails while rendering: a plain message and a way back. */
export function RouteErrorPage() {
  const error = useRouteError();
  useEffect(() => {
    logger.error('A screen failed to render', error);
  }, [error]);
  return (
    <Container component="main" maxWidth="sm" sx={{ py: 5 }}>
      <Alert
        severity="error"
        role="alert"
        action={
          // A full page load: the app may be in a broken state.
          <Button color="inherit" size="small" href="/">
            Start again
          </Button>
        }
      >
        <AlertTitle>Something went wrong</AlertTitle>
        This page ran into a problem. Please start again.
      </Alert>
    </Container>
  );
}
