import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Account, Assistant } from '@talkbooth/protocol';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorResponse, jsonResponse } from '../../../test/render-app';
import { fakeCallService } from '../../../test/fake-call-service';
import type { CallService } from '../../call-booth/call-service';
import { AccountContext } from '../account-context';
import { AssistantEditorPage } from './AssistantEditorPage';
import {
  MICROPHONE_REFUSED,
  TEST_CALL_METADATA,
  sessionCallFetch,
} from './assistant-editor/test-call-service';

const ADMIN: Account = {
  id: 'u-admin',
  username: 'Ines',
  email: 'ines@example.com',
  role: 'admin',
  organisation: { id: 'org-1', name: 'Chainline Cycles' },
};
const VIEWER: Account = { ...ADMIN, id: 'u-viewer', username: 'Otto', role: 'viewer' };

const ASSISTANT: Assistant = {
  id: 'a-1',
  orgId: 'org-1',
  createdAt: '2025-04-01T09:00:00.000Z',
  updatedAt: '2025-04-02T09:00:00.000Z',
  name: 'Chainline workshop desk',
  firstMessage: 'Hello, this is the Chainline bicycle workshop.',
  model: {
    provider: 'local',
    model: 'knowledge-base',
    knowledge: [
      {
        id: 'tyres',
        questions: ['Can you mend a flat tyre?', 'Do you fix punctures?'],
        answer: 'Yes, a puncture is mended while you wait.',
      },
    ],
    intake: { questions: [{ id: 'bike', ask: 'Which bicycle do you ride?' }] },
  },
  voice: { provider: 'espeak', voiceId: 'en-gb' },
  maxDurationSeconds: 300,
  serverUrl: 'https://hooks.example.org/cycles',
  serverUrlSecret: '••••',
};

const CSRF = 'csrf-token-for-tests';

type Route = (init: RequestInit) => Response | Promise<Response>;

/** Answers the page's requests by method and path; `routes` adds or replaces answers. */
function serve(routes: Record<string, Route> = {}) {
  const answers: Record<string, Route> = {
    'GET /console/api/csrf': () => jsonResponse({ token: CSRF }),
    'GET /platform/assistant/a-1': () => jsonResponse(ASSISTANT),
    ...routes,
  };
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const key = `${(init.method ?? 'GET').toUpperCase()} ${url.pathname}`;
    const answer = answers[key];
    if (answer === undefined) throw new Error(`unexpected request ${key}`);
    return answer(init);
  });
}

/** The request with `method` to `path`, and its JSON body and headers. */
function sent(spy: ReturnType<typeof serve>, method: string, path: string) {
  const call = spy.mock.calls.find(
    ([input, init]) =>
      (init?.method ?? 'GET').toUpperCase() === method &&
      new URL(String(input), 'http://localhost').pathname === path,
  );
  if (call === undefined) return undefined;
  const init = call[1] ?? {};
  return {
    body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    headers: new Headers(init.headers),
  };
}

function renderEditor({
  account = ADMIN,
  callService,
}: { account?: Account; callService?: CallService } = {}) {
  const router = createMemoryRouter(
    [
      {
        path: '/console/assistants/:id',
        element: <AssistantEditorPage testCallService={callService} />,
      },
      { path: '/console/assistants', element: <p>The list of assistants</p> },
    ],
    { initialEntries: ['/console/assistants/a-1'] },
  );
  render(
    <AccountContext.Provider value={{ account, signedOut: vi.fn() }}>
      <RouterProvider router={router} />
    </AccountContext.Provider>,
  );
  return { router, user: userEvent.setup() };
}

/** Types `text` into `field` at once (a paste: typing key by key is slow in this big form). */
async function fill(user: ReturnType<typeof userEvent.setup>, field: HTMLElement, text: string) {
  await user.click(field);
  await user.paste(text);
}

/** Waits for the assistant's form (its name is the page's h1). */
const loaded = () =>
  screen.findByRole('heading', { level: 1, name: 'Chainline workshop desk' }, { timeout: 3000 });

const greeting = () => screen.getByLabelText('Greeting');

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the assistant editor', { timeout: 30_000 }, () => {
  it('loads the assistant into its fields, with one h1 and the secret only as "set"', async () => {
    serve();
    renderEditor();
    expect(screen.getByRole('status')).toHaveTextContent('Loading the assistant…');
    await loaded();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(greeting()).toHaveValue('Hello, this is the Chainline bicycle workshop.');
    expect(screen.getByLabelText('Questions of entry 1')).toHaveValue(
      'Can you mend a flat tyre?\nDo you fix punctures?',
    );
    expect(screen.getByLabelText('Question 1')).toHaveValue('Which bicycle do you ride?');
    expect(screen.getByLabelText('Longest call (seconds)')).toHaveValue(300);
    expect(screen.getByText(/A secret is set\./)).toBeInTheDocument();
    expect(screen.queryByDisplayValue('••••')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save changes' })).toBeDisabled();
  });

  it('sends the new greeting and a new knowledge-base entry as a PATCH with the CSRF token', async () => {
    const spy = serve({
      'PATCH /platform/assistant/a-1': (init) =>
        jsonResponse({
          ...ASSISTANT,
          ...(JSON.parse(String(init.body)) as object),
          updatedAt: '2025-04-03T09:00:00.000Z',
        }),
    });
    const { user } = renderEditor();
    await loaded();

    await user.clear(greeting());
    await fill(user, greeting(), 'Hi, you reached the cycle workshop.');
    await user.click(screen.getByRole('button', { name: 'Add entry' }));
    const questions = screen.getByLabelText('Questions of entry 2');
    expect(questions).toHaveFocus();
    await fill(user, questions, 'Do you sell helmets?\nCan I buy a helmet here?');
    await fill(
      user,
      screen.getByLabelText('Answer of entry 2'),
      'Yes, helmets are on the shelf by the door.',
    );
    await user.click(screen.getByRole('checkbox', { name: 'Urgent, entry 2' }));
    expect(screen.getByText('You have unsaved changes.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText('All changes saved.')).toBeInTheDocument();
    const patch = sent(spy, 'PATCH', '/platform/assistant/a-1');
    expect(patch?.headers.get('x-csrf-token')).toBe(CSRF);
    expect(patch?.headers.get('authorization')).toBeNull();
    expect(patch?.body).toEqual({
      firstMessage: 'Hi, you reached the cycle workshop.',
      model: {
        knowledge: [
          ASSISTANT.model?.knowledge?.[0],
          {
            id: 'do-you-sell-helmets',
            questions: ['Do you sell helmets?', 'Can I buy a helmet here?'],
            answer: 'Yes, helmets are on the shelf by the door.',
            urgent: true,
          },
        ],
      },
    });
    expect(screen.getByRole('button', { name: 'Save changes' })).toBeDisabled();
  });

  it('shows each field message of a 400 beside its field', async () => {
    serve({
      'PATCH /platform/assistant/a-1': () =>
        errorResponse(400, 'Please correct these fields: …', {
          error: 'Bad Request',
          fields: {
            'model.knowledge.0.answer': 'This answer is too long to speak.',
            maxDurationSeconds: 'Use 10 to 43200 seconds.',
          },
        }),
    });
    const { user } = renderEditor();
    await loaded();
    await fill(user, greeting(), ' Welcome.');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    const answer = screen.getByLabelText('Answer of entry 1');
    await waitFor(() => expect(answer).toHaveAttribute('aria-invalid', 'true'));
    expect(answer).toHaveAccessibleDescription('This answer is too long to speak.');
    expect(answer).toHaveFocus();
    expect(screen.getByLabelText('Longest call (seconds)')).toHaveAccessibleDescription(
      'Use 10 to 43200 seconds.',
    );
    expect(greeting()).not.toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('alert')).toHaveTextContent('The changes were not saved');
    expect(screen.getByText('You have unsaved changes.')).toBeInTheDocument();
  });

  it('checks the form before sending: an entry without an answer is not saved', async () => {
    const spy = serve();
    const { user } = renderEditor();
    await loaded();
    await user.click(screen.getByRole('button', { name: 'Add entry' }));
    await fill(user, screen.getByLabelText('Questions of entry 2'), 'Can you true a wheel?');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(screen.getByLabelText('Answer of entry 2')).toHaveAccessibleDescription(
      'Write the answer the assistant gives.',
    );
    expect(sent(spy, 'PATCH', '/platform/assistant/a-1')).toBeUndefined();
  });

  it('checks limits with the protocol schema', async () => {
    const spy = serve();
    const { user } = renderEditor();
    await loaded();
    const silence = screen.getByLabelText('End after silence of (seconds)');
    await fill(user, silence, '5');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(silence).toHaveAccessibleDescription('Use 10 to 3600 seconds.');
    expect(sent(spy, 'PATCH', '/platform/assistant/a-1')).toBeUndefined();
  });

  it('moves and removes entries', async () => {
    const spy = serve({
      'PATCH /platform/assistant/a-1': () => jsonResponse(ASSISTANT),
    });
    const { user } = renderEditor();
    await loaded();
    await user.click(screen.getByRole('button', { name: 'Add entry' }));
    await fill(user, screen.getByLabelText('Questions of entry 2'), 'Can you true a wheel?');
    await fill(user, screen.getByLabelText('Answer of entry 2'), 'Yes, leave the wheel with us.');
    await user.click(screen.getByRole('button', { name: 'Move entry 2 up' }));
    expect(screen.getByLabelText('Questions of entry 1')).toHaveValue('Can you true a wheel?');
    await user.click(screen.getByRole('button', { name: 'Remove entry 2' }));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(sent(spy, 'PATCH', '/platform/assistant/a-1')).toBeDefined());
    expect(sent(spy, 'PATCH', '/platform/assistant/a-1')?.body).toEqual({
      model: {
        knowledge: [
          {
            id: 'can-you-true-a-wheel',
            questions: ['Can you true a wheel?'],
            answer: 'Yes, leave the wheel with us.',
          },
        ],
      },
    });
  });

  it('replaces the write-only secret without ever showing the stored one', async () => {
    const spy = serve({
      'PATCH /platform/assistant/a-1': () => jsonResponse(ASSISTANT),
    });
    const { user } = renderEditor();
    await loaded();
    await user.click(screen.getByRole('button', { name: 'Replace secret' }));
    const secret = screen.getByLabelText('New server URL secret');
    expect(secret).toHaveValue('');
    await fill(user, secret, 'new-shared-secret');
    await user.click(screen.getByRole('checkbox', { name: /Transcript lines/ }));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(sent(spy, 'PATCH', '/platform/assistant/a-1')).toBeDefined());
    const body = sent(spy, 'PATCH', '/platform/assistant/a-1')?.body as Record<string, unknown>;
    expect(body.serverUrlSecret).toBe('new-shared-secret');
    expect(body.serverMessages).toContain('transcript');
    expect(body.serverMessages).toContain('status-update');
  });

  it('asks before leaving with unsaved changes', async () => {
    serve();
    const { user, router } = renderEditor();
    await loaded();
    await fill(user, greeting(), ' Hi.');
    await user.click(screen.getByRole('link', { name: 'All assistants' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    await user.click(within(dialog).getByRole('button', { name: 'Stay and keep editing' }));
    expect(router.state.location.pathname).toBe('/console/assistants/a-1');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(screen.getByRole('link', { name: 'All assistants' }));
    await user.click(await screen.findByRole('button', { name: 'Leave without saving' }));
    expect(await screen.findByText('The list of assistants')).toBeInTheDocument();
  });

  it('deletes after a confirmation, then goes back to the list', async () => {
    const spy = serve({ 'DELETE /platform/assistant/a-1': () => jsonResponse(ASSISTANT) });
    const { user } = renderEditor();
    await loaded();
    await user.click(screen.getByRole('button', { name: 'Delete assistant' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete this assistant?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete assistant' }));
    expect(await screen.findByText('The list of assistants')).toBeInTheDocument();
    expect(sent(spy, 'DELETE', '/platform/assistant/a-1')?.headers.get('x-csrf-token')).toBe(CSRF);
  });

  it('lets a viewer read but not edit, delete or call', async () => {
    serve();
    renderEditor({ account: VIEWER });
    await loaded();
    expect(greeting()).toHaveAttribute('readonly');
    expect(screen.getByLabelText('Answer of entry 1')).toHaveAttribute('readonly');
    expect(screen.getByRole('checkbox', { name: 'Urgent, entry 1' })).toBeDisabled();
    for (const name of ['Save changes', 'Add entry', 'Delete assistant', 'Start test call']) {
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    }
    expect(screen.queryByRole('button', { name: 'Remove entry 1' })).not.toBeInTheDocument();
    expect(screen.getByText(/Test calls need the admin role/)).toBeInTheDocument();
  });
});

describe('the test call panel', { timeout: 30_000 }, () => {
  it('runs a call with the booth controls and logs its events with times', async () => {
    serve();
    const fake = fakeCallService({ callId: 'call-7' });
    const { user } = renderEditor({ callService: fake.service });
    await loaded();
    await user.click(screen.getByRole('button', { name: 'Start test call' }));
    expect(fake.start).toHaveBeenCalledWith({ assistantId: 'a-1' }, expect.any(Function));

    fake.emit({ type: 'call-start' });
    fake.emit({ type: 'speech-start' });
    fake.emit({
      type: 'transcript',
      role: 'assistant',
      transcriptType: 'final',
      text: 'Hi, you reached the cycle workshop.',
    });
    fake.emit({ type: 'speech-end' });
    await user.click(await screen.findByRole('button', { name: 'Mute microphone' }));
    expect(fake.setMuted).toHaveBeenCalledWith(true);
    fake.emit({ type: 'call-end', reason: 'silence-timed-out' });

    const log = screen.getByRole('log', { name: 'Event log' });
    await waitFor(() => expect(log).toHaveTextContent('call-end — silence-timed-out'));
    const lines = within(log)
      .getAllByRole('listitem')
      .map((item) => item.textContent ?? '');
    expect(lines.map((line) => line.replace(/^\d\d:\d\d:\d\d\.\d{3}/, ''))).toEqual([
      'start — placing a web call',
      'call-start',
      'speech-start',
      'transcript — assistant: Hi, you reached the cycle workshop.',
      'speech-end',
      'call-end — silence-timed-out',
    ]);
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3}start/);
    expect(screen.getByRole('log', { name: 'Conversation transcript' })).toHaveTextContent(
      'Hi, you reached the cycle workshop.',
    );
    expect(await screen.findByText(/The test call has ended\./)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'New test call' }));
    expect(screen.getByRole('button', { name: 'Start test call' })).toHaveFocus();
  });

  it('says clearly when the microphone was refused', async () => {
    serve();
    const refused = Object.assign(new Error('Permission denied'), { kind: 'microphone-denied' });
    const fake = fakeCallService({ error: refused });
    const { user } = renderEditor({ callService: fake.service });
    await loaded();
    await user.click(screen.getByRole('button', { name: 'Start test call' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MICROPHONE_REFUSED);
    expect(screen.getByRole('log', { name: 'Event log' })).toHaveTextContent(
      'start-failed — Permission denied',
    );
    expect(screen.getByRole('button', { name: 'Start test call' })).toBeEnabled();
  });

  it('warns that the call uses the saved assistant while there are unsaved changes', async () => {
    serve();
    const { user } = renderEditor({ callService: fakeCallService({ callId: null }).service });
    await loaded();
    expect(screen.queryByText(/uses the assistant as saved/)).not.toBeInTheDocument();
    await fill(user, greeting(), ' Hi.');
    expect(screen.getByText(/uses the assistant as saved/)).toBeInTheDocument();
  });
});

describe('the test call’s session request', () => {
  it('creates the web call with the session and CSRF token instead of a key', async () => {
    const call = { id: 'call-1', webCallUrl: 'ws://localhost/call/ws/abc' };
    const spy = serve({ 'POST /platform/call/web': () => jsonResponse(call, { status: 201 }) });
    const response = await sessionCallFetch('http://localhost/platform/call/web', {
      method: 'POST',
      headers: { Authorization: 'Bearer console-session' },
      body: JSON.stringify({ assistantId: 'a-1', metadata: TEST_CALL_METADATA }),
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual(call);
    const request = sent(spy, 'POST', '/platform/call/web');
    expect(request?.headers.get('authorization')).toBeNull();
    expect(request?.headers.get('x-csrf-token')).toBe(CSRF);
    expect(request?.body).toEqual({ assistantId: 'a-1', metadata: TEST_CALL_METADATA });
  });

  it('passes an error answer on with its status and body', async () => {
    serve({
      'POST /platform/call/web': () => errorResponse(503, 'All lines are busy.'),
    });
    const response = await sessionCallFetch('http://localhost/platform/call/web', {
      method: 'POST',
      body: JSON.stringify({ assistantId: 'a-1' }),
    });
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ message: 'All lines are busy.' });
  });
});
