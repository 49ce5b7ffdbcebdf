import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Account, ApiKey } from '@talkbooth/protocol';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { errorResponse, jsonResponse } from '../../../test/render-app';
import { bodyOf, callsTo, headersOf, renderConsolePage, stubConsoleApi } from '../test-support';
import { ApiKeysPage, parseOrigins } from './ApiKeysPage';

const OWNER: Account = {
  id: 'u-owner',
  username: 'Olga',
  email: 'olga@example.com',
  role: 'owner',
  organisation: { id: 'org-1', name: 'Riverside Clinic' },
};

const KEYS: ApiKey[] = [
  {
    id: 'k-1',
    kind: 'private',
    name: 'Booking server',
    hint: 'a1b2',
    allowedOrigins: [],
    revokedAt: null,
    createdAt: '2025-01-01T09:00:00Z',
  },
  {
    id: 'k-2',
    kind: 'public',
    name: 'Website widget',
    hint: 'z9y8',
    allowedOrigins: ['https://clinic.example'],
    revokedAt: '2025-02-01T09:00:00Z',
    createdAt: '2025-01-02T09:00:00Z',
  },
];

const NEW_KEY = 'pk_live_ONE_TIME_SECRET_123456';

const renderPage = (ui: ReactNode, account: Account = OWNER) => renderConsolePage(ui, account);
const stubApi = stubConsoleApi;

// Real typing and MUI transitions: slow when the whole suite runs side by side.
describe('the API keys page', { timeout: 20_000 }, () => {
  it('is for owners only: an admin sees why, and nothing is asked', () => {
    const spy = stubApi({});
    renderPage(<ApiKeysPage />, { ...OWNER, role: 'admin' });
    expect(screen.getByRole('heading', { level: 1, name: 'API keys' })).toBeInTheDocument();
    expect(screen.getByText(/Only an owner of your organisation/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create key' })).not.toBeInTheDocument();
    expect(spy).not.toHaveBeenCalled();
  });

  it('lists the keys: name, kind, hint, origins, created and whether revoked', async () => {
    stubApi({ 'GET /console/api/keys': () => jsonResponse(KEYS) });
    renderPage(<ApiKeysPage />);
    const table = await screen.findByRole('table', { name: 'API keys' });
    const [, first, second] = within(table).getAllByRole('row');
    expect(first).toHaveTextContent(/Booking server.*Private.*…a1b2.*—.*Active/);
    expect(second).toHaveTextContent(
      /Website widget.*Public.*…z9y8.*https:\/\/clinic\.example.*Revoked/,
    );
    expect(
      within(first!).getByRole('button', { name: 'Revoke the key Booking server' }),
    ).toBeInTheDocument();
    expect(within(second!).queryByRole('button', { name: /Revoke/ })).not.toBeInTheDocument();
  });

  it('says so when there are no keys', async () => {
    stubApi({ 'GET /console/api/keys': () => jsonResponse([]) });
    renderPage(<ApiKeysPage />);
    expect(await screen.findByRole('heading', { name: 'No API keys yet' })).toBeInTheDocument();
  });

  it('creates a public key with its origins and shows the key once, with a warning', async () => {
    const record: ApiKey = {
      id: 'k-3',
      kind: 'public',
      name: 'Kiosk',
      hint: '3456',
      allowedOrigins: ['https://a.example', 'https://b.example', 'https://c.example'],
      revokedAt: null,
      createdAt: '2025-03-01T09:00:00Z',
    };
    let listed = KEYS;
    const spy = stubApi({
      'GET /console/api/keys': () => jsonResponse(listed),
      'POST /console/api/keys': () => {
        listed = [...KEYS, record];
        return jsonResponse({ key: NEW_KEY, record }, { status: 201 });
      },
    });
    const user = userEvent.setup();
    renderPage(<ApiKeysPage />);
    await screen.findByRole('table', { name: 'API keys' });
    await user.click(screen.getByRole('button', { name: 'Create key' }));

    const dialog = screen.getByRole('dialog', { name: 'Create an API key' });
    expect(
      within(dialog).queryByRole('textbox', { name: 'Allowed origins' }),
    ).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('radio', { name: /Public/ }));
    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'Kiosk');
    await user.click(within(dialog).getByRole('textbox', { name: 'Allowed origins' }));
    await user.paste('https://a.example, https://b.example\nhttps://c.example');
    await user.click(within(dialog).getByRole('button', { name: 'Create key' }));

    const shown = await screen.findByRole('dialog', { name: 'Your new key “Kiosk”' });
    expect(within(shown).getByRole('textbox', { name: 'API key' })).toHaveValue(NEW_KEY);
    expect(within(shown).getByText(/It is not shown again/)).toBeInTheDocument();
    const [post] = callsTo(spy, 'POST', '/console/api/keys');
    expect(bodyOf(post?.[1])).toEqual({
      kind: 'public',
      name: 'Kiosk',
      allowedOrigins: ['https://a.example', 'https://b.example', 'https://c.example'],
    });
    expect(headersOf(post?.[1])['x-csrf-token']).toBe('csrf-token-1');
    await user.click(within(shown).getByRole('button', { name: 'Copy API key' }));
    expect(await navigator.clipboard.readText()).toBe(NEW_KEY);

    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByDisplayValue(NEW_KEY)).not.toBeInTheDocument();
    expect(screen.queryByText(NEW_KEY)).not.toBeInTheDocument();
    // The list was read again and has the new key (by its hint only).
    expect(await screen.findByText('Kiosk')).toBeInTheDocument();
    expect(screen.getByText('…3456')).toBeInTheDocument();
  });

  it("shows the server's field messages on the fields (an origin's names the origin)", async () => {
    stubApi({
      'GET /console/api/keys': () => jsonResponse(KEYS),
      'POST /console/api/keys': () =>
        errorResponse(400, 'Please correct these fields.', {
          error: 'Bad Request',
          fields: {
            'allowedOrigins.1': 'An origin looks like https://clinic.example (no path).',
            name: 'Use at most 80 characters for the name.',
          },
        }),
    });
    const user = userEvent.setup();
    renderPage(<ApiKeysPage />);
    await screen.findByRole('table', { name: 'API keys' });
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    const dialog = screen.getByRole('dialog', { name: 'Create an API key' });
    await user.click(within(dialog).getByRole('radio', { name: /Public/ }));
    const name = within(dialog).getByRole('textbox', { name: /Name/ });
    await user.type(name, 'Kiosk');
    const origins = within(dialog).getByRole('textbox', { name: 'Allowed origins' });
    await user.click(origins);
    await user.paste('https://a.example,https://b.example/path');
    await user.click(within(dialog).getByRole('button', { name: 'Create key' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Please correct these fields.',
    );
    expect(origins).toHaveAttribute('aria-invalid', 'true');
    expect(origins).toHaveAccessibleDescription(
      '“https://b.example/path”: An origin looks like https://clinic.example (no path).',
    );
    expect(name).toHaveAccessibleDescription('Use at most 80 characters for the name.');
    expect(screen.queryByRole('textbox', { name: 'API key' })).not.toBeInTheDocument();
  });

  it('asks for a name before sending', async () => {
    const spy = stubApi({ 'GET /console/api/keys': () => jsonResponse(KEYS) });
    const user = userEvent.setup();
    renderPage(<ApiKeysPage />);
    await screen.findByRole('table', { name: 'API keys' });
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    const dialog = screen.getByRole('dialog', { name: 'Create an API key' });
    await user.click(within(dialog).getByRole('button', { name: 'Create key' }));
    expect(within(dialog).getByRole('textbox', { name: /Name/ })).toHaveAccessibleDescription(
      'Give the key a name.',
    );
    expect(callsTo(spy, 'POST', '/console/api/keys')).toHaveLength(0);
  });

  it('revokes a key only after confirming', async () => {
    const spy = stubApi({
      'GET /console/api/keys': () => jsonResponse(KEYS),
      'POST /console/api/keys/k-1/revoke': () =>
        jsonResponse({ ...KEYS[0], revokedAt: '2025-03-01T09:00:00Z' }),
    });
    const user = userEvent.setup();
    renderPage(<ApiKeysPage />);
    await user.click(await screen.findByRole('button', { name: 'Revoke the key Booking server' }));
    const dialog = screen.getByRole('dialog', { name: 'Revoke the key “Booking server”?' });
    expect(within(dialog).getByText(/cannot be undone/)).toBeInTheDocument();
    expect(callsTo(spy, 'POST', '/console/api/keys/k-1/revoke')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Revoke key' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'The key “Booking server” is revoked.',
    );
    const revokes = callsTo(spy, 'POST', '/console/api/keys/k-1/revoke');
    expect(revokes).toHaveLength(1);
    expect(headersOf(revokes[0]?.[1])['x-csrf-token']).toBe('csrf-token-1');
  });
});

describe('parseOrigins', () => {
  it('splits on commas, spaces and lines, dropping empties', () => {
    expect(parseOrigins(' https://a.example,\n\nhttps://b.example  https://c.example, ')).toEqual([
      'https://a.example',
      'https://b.example',
      'https://c.example',
    ]);
  });
});
