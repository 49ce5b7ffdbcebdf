import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LazyWithRetry, withTimeout } from './LazyWithRetry';
import type { PageModule } from './LazyWithRetry';

const props = {
  loadingLabel: 'Loading the page…',
  errorTitle: 'The page could not be loaded',
  errorMessage: 'Check your connection, then press Retry.',
};

const page: PageModule = { default: () => <h1>Loaded page</h1> };

describe('LazyWithRetry', () => {
  beforeEach(() => {
    // React reports errors caught by boundaries on console.error; expected here.
    vi.mocked(console.error).mockImplementation(() => undefined);
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows a labelled spinner, then the page', async () => {
    let finish: (module: PageModule) => void = () => undefined;
    render(<LazyWithRetry {...props} load={() => new Promise((resolve) => (finish = resolve))} />);
    expect(screen.getByRole('progressbar', { name: 'Loading the page…' })).toBeInTheDocument();
    await act(async () => finish(page));
    expect(screen.getByRole('heading', { name: 'Loaded page' })).toBeInTheDocument();
  });

  it('shows an alert with Retry when loading fails, and Retry loads afresh', async () => {
    const load = vi
      .fn<(attempt: number) => Promise<PageModule>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValueOnce(page);
    render(<LazyWithRetry {...props} load={load} />);

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The page could not be loaded');
    expect(alert).toHaveTextContent('Check your connection, then press Retry.');
    expect(console.error).toHaveBeenCalledWith(
      expect.stringContaining('A page failed to load'),
      expect.any(TypeError),
    );

    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Loaded page' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(load.mock.calls).toEqual([[0], [1]]);
  });

  it('gives up after the timeout and offers Retry', async () => {
    vi.useFakeTimers();
    render(
      <LazyWithRetry {...props} timeoutMs={120_000} load={() => new Promise(() => undefined)} />,
    );
    await act(async () => {
      await vi.advanceTimersByTimeAsync(119_000);
    });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2_000);
    });
    expect(screen.getByRole('alert')).toHaveTextContent('The page could not be loaded');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });
});

describe('withTimeout', () => {
  it('passes the value through and clears its timer', async () => {
    vi.useFakeTimers();
    await expect(withTimeout(Promise.resolve(5), 1000)).resolves.toBe(5);
    expect(vi.getTimerCount()).toBe(0);
    vi.useRealTimers();
  });
});
