import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { fakeCallService } from '../../test/fake-call-service';
import {
  errorResponse,
  jsonResponse,
  mockFetch,
  renderApp,
  requestBody,
} from '../../test/render-app';
import { CallRefusedError, CallUnavailableError } from './call-service';
import type { CallService } from './call-service';

const SESSION = { assistantId: 'asst-42', assistantName: 'Riverside Helper', product: 'medibrief' };
const MICROPHONE =
  'Microphone permission is needed to make calls. Please enable it in your settings.';

function storeSession(value: unknown = SESSION) {
  sessionStorage.setItem('apiResponse', typeof value === 'string' ? value : JSON.stringify(value));
}

async function openBooth(callService?: CallService, config?: { talkHomeUrl: string }) {
  const view = renderApp({ path: '/call-section', callService, config });
  await screen.findByRole('heading', { level: 1, name: 'Call Booth' });
  return view;
}

async function startAndEndCall(callId: string | null = 'call-7') {
  const fake = fakeCallService({ callId });
  const view = await openBooth(fake.service);
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: 'Start Call' }));
  await user.click(await screen.findByRole('button', { name: 'End Call' }));
  const dialog = await screen.findByRole('dialog', { name: 'Feedback' });
  return { ...view, fake, user, dialog };
}

// The page's chunk is loaded lazily, with the shared zod schemas the first page does without:
// transform it once up front, so the first test's wait is for React, not for Vitest.
beforeAll(() => import('./CallBoothPage'), 60_000);

describe('call booth', () => {
  it('shows a labelled spinner while the booth chunk loads', async () => {
    storeSession();
    renderApp({ path: '/call-section' });
    expect(
      screen.getByRole('progressbar', { name: 'Loading the call booth…' }),
    ).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Call Booth' })).toBeInTheDocument();
  });

  it('shows the assistant id from the stored session and the inactive call control', async () => {
    storeSession();
    await openBooth();
    expect(screen.getByText('asst-42')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'The assistant, ready to talk' })).toHaveAttribute(
      'width',
      '160',
    );
    expect(screen.getByRole('button', { name: 'Start Call' })).toBeEnabled();
    expect(screen.getByText(/Press Start Call and allow the microphone/)).toBeInTheDocument();
    expect(document.title).toBe('Call Booth · Riverside Clinic');
  });

  it('explains a missing session, links back to code entry and hides the call control', async () => {
    await openBooth();
    expect(screen.getByText('No assistant session')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Enter a UniCode' })).toHaveAttribute('href', '/');
    expect(screen.queryByRole('button', { name: 'Start Call' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('assistant-id')).not.toBeInTheDocument();
  });

  it('treats an unparseable session as missing and logs why', async () => {
    storeSession('{not json');
    await openBooth();
    expect(screen.getByText('No assistant session')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Start Call' })).not.toBeInTheDocument();
    expect(console.error).toHaveBeenCalledWith(
      expect.stringContaining('Could not parse the stored "apiResponse" session'),
      expect.any(SyntaxError),
    );
  });

  it('treats a session without an assistant id as missing', async () => {
    storeSession({ assistantName: 'x' });
    await openBooth();
    expect(screen.getByText('No assistant session')).toBeInTheDocument();
  });

  it('says calls are unavailable when the service cannot place calls, and stays inactive', async () => {
    storeSession();
    const fake = fakeCallService({ error: new CallUnavailableError() });
    await openBooth(fake.service);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Start Call' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Voice calls are not available yet');
    expect(alert).toHaveTextContent('Voice calls are not available on this server yet.');
    expect(alert).not.toHaveTextContent(/Microphone/);
    expect(fake.start).toHaveBeenCalledWith({ assistantId: 'asst-42' }, expect.any(Function));
    expect(screen.getByRole('button', { name: 'Start Call' })).toBeEnabled();
  });

  it('uses the default unavailable call service when none is provided', async () => {
    storeSession();
    await openBooth();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Start Call' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Voice calls are not available');
  });

  it('asks for the microphone when starting fails otherwise, logs it and stays inactive', async () => {
    storeSession();
    const failure = new DOMException('Permission denied', 'NotAllowedError');
    const fake = fakeCallService({ error: failure });
    await openBooth(fake.service);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Start Call' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(MICROPHONE);
    expect(console.error).toHaveBeenCalledWith(
      expect.stringContaining('Could not start the call'),
      failure,
    );
    expect(screen.getByRole('button', { name: 'Start Call' })).toBeEnabled();
  });

  it("shows the server's message when it refuses the call, and stays ready to try again", async () => {
    storeSession();
    const refusal = new CallRefusedError(
      'All lines are busy (this server takes 12 calls at a time). Please try again in a minute.',
    );
    const fake = fakeCallService({ error: refusal });
    await openBooth(fake.service);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Start Call' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The call could not start');
    expect(alert).toHaveTextContent(refusal.message);
    expect(alert).not.toHaveTextContent(MICROPHONE);
    expect(screen.getByRole('button', { name: 'Start Call' })).toBeEnabled();
  });

  it('shows a spinner while connecting, then the active state with End Call', async () => {
    storeSession();
    const fake = fakeCallService({ callId: 'c1', deferred: true });
    await openBooth(fake.service);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Start Call' }));

    expect(screen.getByRole('progressbar', { name: 'Connecting…' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Start Call' })).toBeDisabled();

    await act(async () => fake.connect());
    expect(screen.getByRole('button', { name: 'End Call' })).toBeEnabled();
    const talking = screen.getByRole('img', { name: 'The assistant is talking' });
    expect(talking).toHaveAttribute('width', '360');
    expect(talking).toHaveAttribute('height', '200');
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Start Call' })).not.toBeInTheDocument();
  });

  it('End Call hangs up and opens the Feedback dialog', async () => {
    storeSession();
    const { fake, dialog } = await startAndEndCall();
    expect(fake.stop).toHaveBeenCalledTimes(1);
    expect(within(dialog).getByText('How was your call experience?')).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: 'Your Feedback' })).toBeInTheDocument();
  });

  it('submits the feedback with the call and assistant ids, then goes home', async () => {
    storeSession();
    const fetchSpy = mockFetch(
      jsonResponse({ id: 'fb1', createdAt: '2025-01-01T00:00:00Z' }, { status: 201 }),
    );
    const { user, dialog, router } = await startAndEndCall('call-7');

    await user.type(within(dialog).getByRole('textbox', { name: 'Your Feedback' }), 'Very helpful');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(fetchSpy).toHaveBeenCalledTimes(1);
    expect(fetchSpy.mock.calls[0]?.[0]).toBe('/api/feedback');
    expect(requestBody(fetchSpy)).toEqual({
      message: 'Very helpful',
      callId: 'call-7',
      assistantId: 'asst-42',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('goes to a same-origin talk home page through the router', async () => {
    storeSession();
    const fake = fakeCallService({ callId: null });
    const { router } = await openBooth(fake.service, { talkHomeUrl: '/medibrief' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Start Call' }));
    await user.click(await screen.findByRole('button', { name: 'End Call' }));
    await screen.findByRole('dialog', { name: 'Feedback' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/medibrief'));
  });

  it('closing the dialog without submitting sends nothing and goes home', async () => {
    storeSession();
    const fetchSpy = mockFetch();
    const { user, dialog, router } = await startAndEndCall();
    await user.click(within(dialog).getByRole('button', { name: 'Skip' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('keeps the text and shows the error when submitting fails', async () => {
    storeSession();
    mockFetch(errorResponse(500, 'The feedback could not be stored.'));
    const { user, dialog, router } = await startAndEndCall();
    const field = within(dialog).getByRole('textbox', { name: 'Your Feedback' });
    await user.type(field, 'Nice call');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'The feedback could not be stored.',
    );
    expect(field).toHaveValue('Nice call');
    expect(router.state.location.pathname).toBe('/call-section');
  });

  it('opens the Feedback dialog when the assistant ends the call', async () => {
    storeSession();
    const fake = fakeCallService({ callId: 'call-9' });
    await openBooth(fake.service);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Start Call' }));
    await screen.findByRole('button', { name: 'End Call' });

    act(() => fake.emit({ type: 'call-end', reason: 'assistant-ended-call' }));
    expect(await screen.findByRole('dialog', { name: 'Feedback' })).toBeInTheDocument();
    expect(fake.stop).toHaveBeenCalled();
  });

  it('hangs up when the visitor leaves the booth mid-call', async () => {
    storeSession();
    const fake = fakeCallService({ callId: 'call-3' });
    const { router } = await openBooth(fake.service);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Start Call' }));
    await screen.findByRole('button', { name: 'End Call' });
    await act(() => router.navigate('/'));
    expect(fake.stop).toHaveBeenCalledTimes(1);
  });

  it('reports an error during the call without ending it', async () => {
    storeSession();
    const fake = fakeCallService({ callId: 'call-4' });
    await openBooth(fake.service);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Start Call' }));
    await screen.findByRole('button', { name: 'End Call' });
    act(() => fake.emit({ type: 'error', error: new Error('Audio dropped') }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The call had a problem: Audio dropped',
    );
    expect(screen.getByRole('button', { name: 'End Call' })).toBeInTheDocument();
  });
});
