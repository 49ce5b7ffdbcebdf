import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { Suspense, lazy, useState } from 'react';
import type { ComponentType } from 'react';
import { ErrorBoundary } from 'react-error-boundary';
import { logger } from './logger';

/** A module whose default export is a component without props (a route page). */
export type PageModule = { default: ComponentType };

/** Thrown when a chunk takes longer than allowed to load. */
export class LoadTimeoutError extends Error {
  constructor(seconds: number) {
    super(`Loading took longer than ${seconds} seconds.`);
    this.name = 'LoadTimeoutError';
  }
}

/** Rejects with LoadTimeoutError when `promise` has not settled within `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new LoadTimeoutError(Math.round(ms / 1000))), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

export interface LazyWithRetryProps {
  /**
   * Loads the page module, e.g. `() => import('./SomePage')`. Called again on Retry, with the
   * attempt number (0 for the first load).
   */
  load: (attempt: number) => Promise<PageModule>;
  /** Shown next to the spinner and used as its accessible label. */
  loadingLabel: string;
  errorTitle: string;
  /** What went wrong and what to do, for a person. */
  errorMessage: string;
  /** Give up waiting after this long (default 120 s). */
  timeoutMs?: number;
}

function LoadingIndicator({ label }: { label: string }) {
  return (
    <Box
      role="status"
      sx={{ display: 'flex', alignItems: 'center', justifyContent: 'center', gap: 2, py: 6 }}
    >
      <CircularProgress aria-label={label} />
      <Typography color="text.secondary">{label}</Typography>
    </Box>
  );
}

/**
 * Renders a lazily loaded page. While the chunk loads it shows a spinner; when loading fails
 * or takes longer than `timeoutMs`, a message (role alert) with a Retry button that starts a
 * fresh load (a new React.lazy component, since a failed lazy component keeps its failure).
 */
export function LazyWithRetry({
  load,
  loadingLabel,
  errorTitle,
  errorMessage,
  timeoutMs = 120_000,
}: LazyWithRetryProps) {
  const makePage = (count: number) => lazy(() => withTimeout(load(count), timeoutMs));
  const [attempt, setAttempt] = useState(() => ({ count: 0, Page: makePage(0) }));
  const { Page } = attempt;

  const retry = () =>
    setAttempt((prev) => ({ count: prev.count + 1, Page: makePage(prev.count + 1) }));

  return (
    <ErrorBoundary
      key={attempt.count}
      onError={(error) => logger.error('A page failed to load', error)}
      // Typography and Button, not Alert: the code-entry page carries this and not Alert.
      fallbackRender={() => (
        <Box
          role="alert"
          sx={{ display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: 1.5 }}
        >
          <Typography variant="h2" component="p">
            {errorTitle}
          </Typography>
          <Typography color="text.secondary">{errorMessage}</Typography>
          <Button variant="contained" onClick={retry}>
            Retry
          </Button>
        </Box>
      )}
    >
      <Suspense fallback={<LoadingIndicator label={loadingLabel} />}>
        <Page />
      </Suspense>
    </ErrorBoundary>
  );
}
