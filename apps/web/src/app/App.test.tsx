import { screen, waitFor } from '@testing-library/react';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { errorResponse, jsonResponse, mockFetch } from '../test/render-app';
import { App } from './App';

const CONFIG = {
  product: 'riverside',
  productName: 'medibrief',
  talkHomeUrl: '/',
  platformBaseUrl: '/platform',
  platformPublicKey: null,
};

const DOCUMENTS = [
  {
    id: 'product',
    title: 'Riverside Clinic',
    tagline: 'Talk to our assistant before your visit',
    support: 'reception@riverside.example',
  },
  { id: 'faq', title: 'Opening hours' },
];

describe('App', () => {
  it('loads the client config and the talk collection, logging each document', async () => {
    window.history.replaceState(null, '', '/');
    const fetchSpy = mockFetch(jsonResponse(CONFIG), jsonResponse(DOCUMENTS));
    render(<App />);

    expect(screen.getByRole('heading', { name: 'Talk to Assistant' })).toBeInTheDocument();
    expect(
      await screen.findByText('Riverside Clinic · Talk to our assistant before your visit'),
    ).toBeInTheDocument();
    expect(fetchSpy.mock.calls.map((call) => call[0])).toEqual([
      '/api/client-config',
      '/api/collections/talk-riverside',
    ]);
    for (const doc of DOCUMENTS) {
      expect(console.debug).toHaveBeenCalledWith(expect.stringContaining('talk-riverside'), doc);
    }
    expect(screen.getByRole('link', { name: 'medibrief home' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'reception@riverside.example' })).toHaveAttribute(
      'href',
      'mailto:reception@riverside.example',
    );
    await waitFor(() => expect(document.title).toBe('Talk to Assistant · Riverside Clinic'));
  });

  it('keeps working with defaults when the config and the collection fail to load', async () => {
    window.history.replaceState(null, '', '/register');
    const fetchSpy = mockFetch(
      errorResponse(500, 'Config broke.'),
      new TypeError('Failed to fetch'),
    );
    render(<App />);

    expect(await screen.findByRole('heading', { name: 'Register' })).toBeInTheDocument();
    await waitFor(() => expect(fetchSpy).toHaveBeenCalledTimes(2));
    expect(fetchSpy.mock.calls[1]?.[0]).toBe('/api/collections/talk-medibrief');
    await waitFor(() =>
      expect(console.warn).toHaveBeenCalledWith(
        expect.stringContaining('Could not load the talk-medibrief collection'),
        expect.any(TypeError),
      ),
    );
    expect(console.warn).toHaveBeenCalledWith(
      expect.stringContaining('Could not load the client configuration'),
      expect.anything(),
    );
    expect(screen.getByRole('link', { name: 'medibrief home' })).toBeInTheDocument();
    expect(document.title).toBe('Register · medibrief');
  });
});
