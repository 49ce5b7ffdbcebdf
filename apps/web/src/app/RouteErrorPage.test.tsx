import { render, screen } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { RouteErrorPage } from './RouteErrorPage';

function Broken(): never {
  throw new Error('render failed');
}

describe('RouteErrorPage', () => {
  it('replaces a screen that fails to render with a plain message, and logs the error', () => {
    // React and React Router report the caught error on console.error too; expected here.
    vi.mocked(console.error).mockImplementation(() => undefined);
    vi.mocked(console.warn).mockImplementation(() => undefined);
    const router = createMemoryRouter([
      { path: '/', element: <Broken />, errorElement: <RouteErrorPage /> },
    ]);
    render(<RouterProvider router={router} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Something went wrong');
    expect(screen.getByRole('link', { name: 'Start again' })).toHaveAttribute('href', '/');
    expect(console.error).toHaveBeenCalledWith(
      expect.stringContaining('A screen failed to render'),
      expect.objectContaining({ message: 'render failed' }),
    );
  });
});
