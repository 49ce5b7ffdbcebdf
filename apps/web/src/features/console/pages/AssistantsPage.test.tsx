import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Account, Assistant } from '@talkbooth/protocol';
import { RouterProvider, createMemoryRouter, useParams } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorResponse, jsonResponse } from '../../../test/render-app';
import { AccountContext } from '../account-context';
import { AssistantsPage, excerpt } from './AssistantsPage';

const OWNER: Account = {
  id: 'u-owner',
  username: 'Mira',
  email: 'mira@example.com',
  role: 'owner',
  organisation: { id: 'org-1', name: 'Chainline Cycles' },
};
const VIEWER: Account = { ...OWNER, id: 'u-viewer', username: 'Otto', role: 'viewer' };

const LONG_GREETING =
  'Good day, this is the Chainline bicycle workshop, where we service road bikes, mend punctures, true wheels and adjust brakes; tell me what your bicycle needs.';

const ASSISTANTS: Assistant[] = [
  {
    id: 'a-2',
    orgId: 'org-1',
    createdAt: '2025-04-05T09:00:00.000Z',
    updatedAt: '2025-04-06T15:30:00.000Z',
    name: 'Repair bench line',
    firstMessage: LONG_GREETING,
  },
  {
    id: 'a-1',
    orgId: 'org-1',
    createdAt: '2025-04-01T09:00:00.000Z',
    updatedAt: '2025-04-02T09:00:00.000Z',
    name: 'Chainline workshop desk',
  },
];

const CSRF = 'csrf-token-for-list-tests';

function EditorStandIn() {
  return <p>Editor of {useParams().id}</p>;
}

function renderList(account: Account = OWNER) {
  const router = createMemoryRouter(
    [
      { path: '/console/assistants', element: <AssistantsPage /> },
      { path: '/console/assistants/:id', element: <EditorStandIn /> },
    ],
    { initialEntries: ['/console/assistants'] },
  );
  render(
    <AccountContext.Provider value={{ account, signedOut: vi.fn() }}>
      <RouterProvider router={router} />
    </AccountContext.Provider>,
  );
  return { router, user: userEvent.setup() };
}

/** Answers by method and path. */
function serve(answers: Record<string, (init: RequestInit) => Response>) {
  const all: Record<string, (init: RequestInit) => Response> = {
    'GET /console/api/csrf': () => jsonResponse({ token: CSRF }),
    ...answers,
  };
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const key = `${(init.method ?? 'GET').toUpperCase()} ${url.pathname}`;
    const answer = all[key];
    if (answer === undefined) throw new Error(`unexpected request ${key}`);
    return answer(init);
  });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the assistants list', () => {
  it('lists each assistant with its name, greeting excerpt and update time, linking to it', async () => {
    serve({ 'GET /platform/assistant': () => jsonResponse(ASSISTANTS) });
    renderList();
    expect(screen.getByRole('heading', { level: 1, name: 'Assistants' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Loading the assistants…');

    const list = await screen.findByRole('list', { name: 'Assistants' });
    const links = within(list).getAllByRole('link');
    expect(links).toHaveLength(2);
    expect(links[0]).toHaveAttribute('href', '/console/assistants/a-2');
    expect(links[0]).toHaveTextContent('Repair bench line');
    expect(links[0]).toHaveTextContent(excerpt(LONG_GREETING));
    expect(links[0]).not.toHaveTextContent('tell me what your bicycle needs');
    expect(links[0]?.querySelector('time')).toHaveAttribute('datetime', '2025-04-06T15:30:00.000Z');
    expect(links[1]).toHaveAttribute('href', '/console/assistants/a-1');
    expect(links[1]).toHaveTextContent('No greeting');
  });

  it('shortens long greetings with an ellipsis', () => {
    expect(excerpt('short one')).toBe('short one');
    const cut = excerpt(LONG_GREETING);
    expect(cut.length).toBeLessThanOrEqual(120);
    expect(cut.endsWith('…')).toBe(true);
  });

  it('creates an assistant with a name, then opens it', async () => {
    const created = { ...ASSISTANTS[1], id: 'a-9', name: 'Courier desk' };
    const spy = serve({
      'GET /platform/assistant': () => jsonResponse(ASSISTANTS),
      'POST /platform/assistant': () => jsonResponse(created, { status: 201 }),
    });
    const { user } = renderList();
    await screen.findByRole('list', { name: 'Assistants' });
    await user.click(screen.getByRole('button', { name: 'New assistant' }));
    const dialog = screen.getByRole('dialog', { name: 'New assistant' });
    await user.click(within(dialog).getByRole('button', { name: 'Create and open' }));
    expect(within(dialog).getByRole('textbox', { name: /Name/ })).toHaveAccessibleDescription(
      'Give the assistant a name.',
    );

    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'Courier desk');
    await user.click(within(dialog).getByRole('button', { name: 'Create and open' }));
    expect(await screen.findByText('Editor of a-9')).toBeInTheDocument();

    const post = spy.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(new Headers(post?.[1]?.headers).get('x-csrf-token')).toBe(CSRF);
    expect(JSON.parse(String(post?.[1]?.body))).toMatchObject({
      name: 'Courier desk',
      model: { provider: 'local', model: 'knowledge-base' },
      voice: { provider: 'espeak', voiceId: 'en-us' },
    });
  });

  it('shows the server’s message when creating fails', async () => {
    serve({
      'GET /platform/assistant': () => jsonResponse(ASSISTANTS),
      'POST /platform/assistant': () => errorResponse(503, 'The database is busy.'),
    });
    const { user } = renderList();
    await screen.findByRole('list', { name: 'Assistants' });
    await user.click(screen.getByRole('button', { name: 'New assistant' }));
    const dialog = screen.getByRole('dialog', { name: 'New assistant' });
    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'Courier desk');
    await user.click(within(dialog).getByRole('button', { name: 'Create and open' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Could not create the assistant. The database is busy.',
    );
  });

  it('lets a viewer read the list without creating', async () => {
    serve({ 'GET /platform/assistant': () => jsonResponse(ASSISTANTS) });
    renderList(VIEWER);
    await screen.findByRole('list', { name: 'Assistants' });
    expect(screen.queryByRole('button', { name: 'New assistant' })).not.toBeInTheDocument();
    expect(screen.getByText(/changing them needs the admin role/)).toBeInTheDocument();
  });

  it('says so when there are none yet', async () => {
    serve({ 'GET /platform/assistant': () => jsonResponse([]) });
    renderList();
    expect(await screen.findByText('No assistants yet.')).toBeInTheDocument();
    expect(screen.getByText(/Press New assistant to create one/)).toBeInTheDocument();
  });

  it('offers Retry when the list cannot be loaded', async () => {
    let fail = true;
    serve({
      'GET /platform/assistant': () =>
        fail ? errorResponse(500, 'The server had a problem.') : jsonResponse(ASSISTANTS),
    });
    const { user } = renderList();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not load the assistants. The server had a problem.',
    );
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('list', { name: 'Assistants' })).toBeInTheDocument();
  });

  it('sends a signed-out person back to sign in', async () => {
    serve({ 'GET /platform/assistant': () => errorResponse(401, 'Sign in first.') });
    const signedOut = vi.fn();
    const router = createMemoryRouter(
      [{ path: '/console/assistants', element: <AssistantsPage /> }],
      { initialEntries: ['/console/assistants'] },
    );
    render(
      <AccountContext.Provider value={{ account: OWNER, signedOut }}>
        <RouterProvider router={router} />
      </AccountContext.Provider>,
    );
    await vi.waitFor(() => expect(signedOut).toHaveBeenCalled());
  });
});
