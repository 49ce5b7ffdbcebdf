import { screen, waitFor } from '@testing-library/react';
import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, renderApp } from '../test/render-app';

vi.mock('../features/registration/RegisterRoute', () => ({
  RegisterRoute: function Broken(): never {
    throw new Error('render failed');
  },
}));

describe('the visitor pages', () => {
  it.each([
    ['/', 'Talk to Assistant'],
    ['/login', 'Talk to Assistant'],
    ['/MEDIBRIEF/', 'Talk to Assistant'],
    ['/a/b', 'Page not found'],
  ])('show %s as their page', (path, heading) => {
    renderApp({ path });
    expect(screen.getByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
  });

  it('take a single path segment for a UniCode, decoded', async () => {
    const fetchSpy = mockFetch(jsonResponse([]));
    renderApp({ path: '/Ab%20C' });
    expect(screen.getByRole('textbox', { name: 'UniCode' })).toHaveValue('Ab C');
    await waitFor(() => expect(fetchSpy).toHaveBeenCalledTimes(1));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid UniCode');
  });

  it('replace a screen that fails to render with a plain message until the address changes', async () => {
    // React reports the caught error on console.error too; expected here.
    vi.mocked(console.error).mockImplementation(() => undefined);
    const { router } = renderApp({ path: '/register' });
    expect(screen.getByRole('alert')).toHaveTextContent('Something went wrong');
    expect(screen.getByRole('link', { name: 'Start again' })).toHaveAttribute('href', '/');
    expect(console.error).toHaveBeenCalledWith(
      expect.stringContaining('A screen failed to render'),
      expect.objectContaining({ message: 'render failed' }),
    );
    act(() => router.navigate('/'));
    expect(
      screen.getByRole('heading', { level: 1, name: 'Talk to Assistant' }),
    ).toBeInTheDocument();
  });
});
