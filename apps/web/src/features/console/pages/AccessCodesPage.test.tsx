import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Account, AccountRole } from '@talkbooth/protocol';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { errorResponse, jsonResponse } from '../../../test/render-app';
import { AccountContext } from '../account-context';
import { AccessCodesPage } from './AccessCodesPage';

const account = (role: AccountRole): Account => ({
  id: 'u-1',
  username: 'Ada',
  email: 'ada@example.com',
  role,
  organisation: { id: 'org-1', name: 'Riverside Clinic' },
});

const ASSISTANT = {
  id: 'as-1',
  orgId: 'org-1',
  name: 'Front desk',
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
};
const CODE = {
  id: 'code-1',
  orgId: 'org-1',
  assistantId: 'as-1',
  label: 'Waiting room',
  expiresAt: null,
  maxUses: 10,
  useCount: 3,
  revokedAt: null,
  status: 'active',
  createdAt: '2026-01-02T00:00:00Z',
  updatedAt: '2026-01-02T00:00:00Z',
};

function renderPage(role: AccountRole) {
  render(
    <MemoryRouter>
      <AccountContext.Provider value={{ account: account(role), signedOut: vi.fn() }}>
        <AccessCodesPage />
      </AccountContext.Provider>
    </MemoryRouter>,
  );
}

/** The platform API as the page sees it; `create` answers the POST. */
function stubApi(create: (body: unknown) => Response = () => errorResponse(500, 'unexpected')) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    if (url.pathname === '/console/api/csrf') return jsonResponse({ token: 'csrf-1' });
    if (url.pathname === '/platform/assistant') return jsonResponse([ASSISTANT]);
    if (url.pathname === '/platform/access-code' && method === 'GET') return jsonResponse([CODE]);
    if (url.pathname === '/platform/access-code' && method === 'POST') {
      return create(JSON.parse(String(init?.body)));
    }
    if (url.pathname === '/platform/access-code/code-1/revoke') {
      return jsonResponse({ ...CODE, status: 'revoked', revokedAt: '2026-01-03T00:00:00Z' });
    }
    return errorResponse(404, `No stub for ${method} ${url.pathname}`);
  });
}

describe('the access codes page', () => {
  it('lists codes with uses left, and shows a viewer no buttons to change them', async () => {
    stubApi();
    renderPage('viewer');
    const table = await screen.findByRole('table', { name: 'Access codes' });
    expect(within(table).getByText('Waiting room')).toBeInTheDocument();
    expect(within(table).getByText('7 of 10')).toBeInTheDocument();
    expect(within(table).getByText('Front desk')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New access code' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Revoke/ })).toBeNull();
  });

  it('creates a code and shows it once on a card with its QR code, sent with the CSRF token', async () => {
    const fetchSpy = stubApi(() =>
      jsonResponse(
        { ...CODE, id: 'code-2', label: 'Poster', maxUses: null, useCount: 0, code: 'K7Q-M2X-9PT' },
        { status: 201 },
      ),
    );
    renderPage('admin');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'New access code' }));
    const dialog = screen.getByRole('dialog', { name: 'New access code' });
    await user.type(within(dialog).getByLabelText('Label'), 'Poster');
    await user.type(within(dialog).getByLabelText('Maximum uses (optional)'), '0');
    await user.click(within(dialog).getByRole('button', { name: 'Create code' }));
    expect(within(dialog).getByText(/A whole number of at least 1/)).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText('Maximum uses (optional)'));
    await user.click(within(dialog).getByRole('button', { name: 'Create code' }));

    const created = await screen.findByRole('dialog', { name: 'Your new access code' });
    expect(within(created).getByText('K7Q-M2X-9PT')).toBeInTheDocument();
    expect(within(created).getByText(/only time the code is shown/)).toBeInTheDocument();
    expect(
      await within(created).findByRole('img', { name: /QR code of http.*\?unicode=K7Q-M2X-9PT/ }),
    ).toBeInTheDocument();
    const [, init] = fetchSpy.mock.calls.find(
      ([input, i]) => String(input).endsWith('/platform/access-code') && i?.method === 'POST',
    )!;
    expect(new Headers(init?.headers).get('x-csrf-token')).toBe('csrf-1');
    expect(new Headers(init?.headers).get('authorization')).toBeNull();
    expect(JSON.parse(String(init?.body))).toEqual({ assistantId: 'as-1', label: 'Poster' });
  });

  it('asks before revoking, and revokes on confirmation', async () => {
    const fetchSpy = stubApi();
    renderPage('owner');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Revoke Waiting room' }));
    const confirm = screen.getByRole('dialog', { name: 'Revoke this access code?' });
    await user.click(within(confirm).getByRole('button', { name: 'Keep it' }));
    expect(fetchSpy.mock.calls.some(([input]) => String(input).endsWith('/revoke'))).toBe(false);
    await user.click(await screen.findByRole('button', { name: 'Revoke Waiting room' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Revoke this access code?' })).getByRole('button', {
        name: 'Revoke',
      }),
    );
    await vi.waitFor(() =>
      expect(
        fetchSpy.mock.calls.some(([input]) => String(input).endsWith('/access-code/code-1/revoke')),
      ).toBe(true),
    );
  });
});
