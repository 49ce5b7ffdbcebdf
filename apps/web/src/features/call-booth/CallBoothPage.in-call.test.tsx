import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fakeCallService } from '../../test/fake-call-service';
import { jsonResponse, mockFetch, renderApp, requestBody } from '../../test/render-app';
import type { CallEvent } from './call-service';

const SESSION = { assistantId: 'asst-42', assistantName: 'Riverside Helper', product: 'medibrief' };
const MICROPHONE =
  'Microphone permission is needed to make calls. Please enable it in your settings.';
const LOST =
  'The connection to the assistant was lost. Check your internet connection, then press Start a new call to try again, or press Leave feedback to finish.';

/** Opens the booth with a stored session and a fake call service. */
async function openBooth(outcome: Parameters<typeof fakeCallService>[0] = { callId: 'call-7' }) {
  sessionStorage.setItem('apiResponse', JSON.stringify(SESSION));
  const fake = fakeCallService(outcome);
  const view = renderApp({ path: '/call-section', callService: fake.service });
  await screen.findByRole('heading', { level: 1, name: 'Call Booth' });
  return { ...view, fake, user: userEvent.setup() };
}

/** Opens the booth and starts a call that connects at once. */
async function inCall(callId: string | null = 'call-7') {
  const booth = await openBooth({ callId });
  await booth.user.click(screen.getByRole('button', { name: 'Start Call' }));
  await screen.findByRole('button', { name: 'End Call' });
  return { ...booth, emit: (event: CallEvent) => act(() => booth.fake.emit(event)) };
}

const transcriptLog = () => screen.getByRole('log', { name: 'Conversation transcript' });

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

// The page's chunk is loaded lazily, with the shared zod schemas the first page does without:
// transform it once up front, so the first test's wait is for React, not for Vitest.
beforeAll(() => import('./CallBoothPage'), 60_000);

describe('call booth during a call', () => {
  it('starts the call with the public key the code check gave for the code’s organisation', async () => {
    sessionStorage.setItem(
      'apiResponse',
      JSON.stringify({ ...SESSION, platformPublicKey: 'tb_public_dental' }),
    );
    const fake = fakeCallService({ callId: 'call-8' });
    renderApp({ path: '/call-section', callService: fake.service });
    await screen.findByRole('heading', { level: 1, name: 'Call Booth' });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Start Call' }));
    expect(fake.start).toHaveBeenCalledWith(
      { assistantId: 'asst-42', publicKey: 'tb_public_dental' },
      expect.any(Function),
    );
  });

  it('goes from ready to connecting to the active call', async () => {
    const { fake, user } = await openBooth({ callId: 'call-7', deferred: true });
    expect(screen.getByText(/Press Start Call and allow the microphone/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Start Call' }));
    expect(screen.getByRole('progressbar', { name: 'Connecting…' })).toBeInTheDocument();
    expect(screen.getByText(/Connecting to the assistant/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Start Call' })).toBeDisabled();
    expect(fake.start).toHaveBeenCalledWith({ assistantId: 'asst-42' }, expect.any(Function));

    await act(async () => fake.connect());
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'The assistant is talking' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Listening…');
    expect(screen.getByRole('timer', { name: 'Call time 00:00' })).toHaveTextContent('00:00');
    expect(screen.getByRole('button', { name: 'Mute microphone' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
    expect(screen.getByRole('button', { name: 'End Call' })).toBeEnabled();
    expect(screen.getByRole('heading', { level: 2, name: 'Conversation' })).toBeInTheDocument();
    expect(
      screen.getByText('What you and the assistant say will appear here.'),
    ).toBeInTheDocument();
  });

  it('shows both sides of the conversation, partial words in italics until the final line', async () => {
    const { emit } = await inCall();
    const log = transcriptLog();
    expect(log).toHaveAttribute('aria-live', 'polite');

    emit({ type: 'transcript', role: 'user', transcriptType: 'partial', text: 'I need to' });
    const partial = screen.getByText('I need to');
    expect(partial).toHaveStyle({ fontStyle: 'italic' });
    // Words still being recognised are shown, but not announced from the log.
    expect(within(log).queryByText('I need to')).not.toBeInTheDocument();
    expect(
      screen.queryByText('What you and the assistant say will appear here.'),
    ).not.toBeInTheDocument();

    emit({ type: 'transcript', role: 'user', transcriptType: 'partial', text: 'I need to book' });
    expect(screen.queryByText('I need to')).not.toBeInTheDocument();
    expect(screen.getByText('I need to book')).toBeInTheDocument();

    emit({
      type: 'transcript',
      role: 'user',
      transcriptType: 'final',
      text: 'I need to book a visit.',
    });
    expect(screen.queryByText('I need to book')).not.toBeInTheDocument();
    const final = within(log).getByText('I need to book a visit.');
    expect(final).not.toHaveStyle({ fontStyle: 'italic' });

    emit({ type: 'transcript', role: 'assistant', transcriptType: 'partial', text: 'Sure' });
    expect(screen.getByText('Sure')).toHaveStyle({ fontStyle: 'italic' });
    emit({
      type: 'transcript',
      role: 'assistant',
      transcriptType: 'final',
      text: 'Sure, which day suits you?',
    });

    const lines = within(log).getAllByRole('listitem');
    expect(lines.map((line) => line.textContent)).toEqual([
      'You: I need to book a visit.',
      'Assistant: Sure, which day suits you?',
    ]);
    expect(within(lines[0] as HTMLElement).getByText('You')).toBeInTheDocument();
    expect(within(lines[1] as HTMLElement).getByText('Assistant')).toBeInTheDocument();
  });

  it('moves the picture and the level meter with the assistant voice level', async () => {
    const { emit } = await inCall();
    const picture = screen.getByRole('img', { name: 'The assistant is talking' });
    const meter = screen.getByRole('meter', { name: "Assistant's voice level" });
    expect(meter).toHaveAttribute('aria-valuenow', '0');
    const quiet = picture.style.transform;
    expect(quiet).toMatch(/scale/);

    emit({ type: 'volume-level', level: 0.5 });
    expect(meter).toHaveAttribute('aria-valuenow', '50');
    expect(picture).toHaveAttribute('data-level', '50');
    expect(picture.style.transform).not.toBe(quiet);

    emit({ type: 'volume-level', level: 0.9 });
    expect(meter).toHaveAttribute('aria-valuenow', '90');
  });

  it('keeps the picture still with reduced motion, while the meter still shows the voice', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query.includes('prefers-reduced-motion: reduce'),
      media: query,
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    }));
    const { emit } = await inCall();
    const picture = screen.getByRole('img', { name: 'The assistant is talking' });
    emit({ type: 'volume-level', level: 0.7 });
    expect(picture.style.transform).toBe('');
    expect(screen.getByRole('meter', { name: "Assistant's voice level" })).toHaveAttribute(
      'aria-valuenow',
      '70',
    );
  });

  it('says in words whether the assistant is speaking or listening', async () => {
    const { emit } = await inCall();
    expect(screen.getByRole('status')).toHaveTextContent('Listening…');
    emit({ type: 'speech-start' });
    expect(screen.getByRole('status')).toHaveTextContent('Assistant is speaking…');
    emit({ type: 'speech-end' });
    expect(screen.getByRole('status')).toHaveTextContent('Listening…');
  });

  it('mutes and unmutes the microphone', async () => {
    const { fake, user } = await inCall();
    await user.click(screen.getByRole('button', { name: 'Mute microphone' }));
    expect(fake.setMuted).toHaveBeenLastCalledWith(true);
    const unmute = screen.getByRole('button', { name: 'Unmute microphone' });
    expect(unmute).toHaveAttribute('aria-pressed', 'true');
    expect(
      screen.getByText(/Your microphone is muted: the assistant cannot hear you/),
    ).toBeVisible();

    await user.click(unmute);
    expect(fake.setMuted).toHaveBeenLastCalledWith(false);
    expect(screen.getByRole('button', { name: 'Mute microphone' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
    expect(screen.queryByText(/Your microphone is muted/)).not.toBeInTheDocument();
  });

  it('says so when the microphone cannot be switched, and keeps the call', async () => {
    const { fake, user } = await inCall();
    fake.setMuted.mockImplementationOnce(() => {
      throw new Error('Call object is not available.');
    });
    await user.click(screen.getByRole('button', { name: 'Mute microphone' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'The microphone could not be switched. Please try again.',
    );
    expect(screen.getByRole('button', { name: 'Mute microphone' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
    expect(screen.getByRole('button', { name: 'End Call' })).toBeEnabled();
  });

  it('counts the call time as mm:ss', async () => {
    const { fake } = await openBooth({ callId: 'call-7' });
    // Only the clock and intervals are fake: promises and Testing Library keep real timeouts.
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    fireEvent.click(screen.getByRole('button', { name: 'Start Call' }));
    await screen.findByRole('button', { name: 'End Call' });
    expect(fake.start).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('timer', { name: 'Call time 00:00' })).toBeInTheDocument();
    // The timer's interval starts in an effect; on a loaded machine that effect had not run
    // yet when the clock moved, and the time stayed 00:00. Let it run first.
    await act(async () => {});

    act(() => vi.advanceTimersByTime(5_000));
    expect(screen.getByRole('timer', { name: 'Call time 00:05' })).toHaveTextContent('00:05');

    act(() => vi.advanceTimersByTime(78_000));
    expect(screen.getByRole('timer', { name: 'Call time 01:23' })).toHaveTextContent('01:23');
  });

  it('explains a lost connection and offers a new call, which starts afresh', async () => {
    const { fake, emit, user } = await inCall('call-7');
    emit({ type: 'transcript', role: 'user', transcriptType: 'final', text: 'Hello?' });
    emit({ type: 'connection-lost' });

    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Connection lost');
    expect(alert).toHaveTextContent(LOST);
    expect(screen.queryByRole('button', { name: 'End Call' })).not.toBeInTheDocument();
    expect(screen.queryByRole('timer')).not.toBeInTheDocument();
    expect(within(transcriptLog()).getByText('Hello?')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Start a new call' })).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Leave feedback' })).toBeEnabled();
    expect(fake.stop).toHaveBeenCalled();
    expect(console.warn).toHaveBeenCalledWith(
      expect.stringContaining('The connection to the assistant was lost'),
      { callId: 'call-7' },
    );

    // The socket's own call-end follows; it changes nothing.
    emit({ type: 'call-end' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Start a new call' }));
    await screen.findByRole('button', { name: 'End Call' });
    expect(fake.start).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByText('Hello?')).not.toBeInTheDocument();
  });

  it('after a lost connection, Leave feedback sends the feedback with the call id and goes home', async () => {
    const fetchSpy = mockFetch(
      jsonResponse({ id: 'fb1', createdAt: '2025-01-01T00:00:00Z' }, { status: 201 }),
    );
    const { emit, user, router } = await inCall('call-lost-1');
    emit({ type: 'connection-lost' });
    await user.click(screen.getByRole('button', { name: 'Leave feedback' }));

    const dialog = await screen.findByRole('dialog', { name: 'Feedback' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Your Feedback' }), 'It dropped');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(requestBody(fetchSpy)).toEqual({
      message: 'It dropped',
      callId: 'call-lost-1',
      assistantId: 'asst-42',
    });
  });

  it('when the assistant ends the call: hangs up, asks for feedback, then goes home', async () => {
    const { fake, emit, user, router } = await inCall('call-9');
    emit({ type: 'speech-start' });
    emit({ type: 'call-end', reason: 'assistant-ended-call' });

    const dialog = await screen.findByRole('dialog', { name: 'Feedback' });
    expect(fake.stop).toHaveBeenCalledTimes(1);
    await user.click(within(dialog).getByRole('button', { name: 'Skip' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('End Call hangs up and the feedback carries the call id', async () => {
    const fetchSpy = mockFetch(
      jsonResponse({ id: 'fb2', createdAt: '2025-01-01T00:00:00Z' }, { status: 201 }),
    );
    const { fake, user, router } = await inCall('call-end-1');
    await user.click(screen.getByRole('button', { name: 'End Call' }));
    expect(fake.stop).toHaveBeenCalledTimes(1);
    const dialog = await screen.findByRole('dialog', { name: 'Feedback' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Your Feedback' }), 'Good');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(requestBody(fetchSpy)).toMatchObject({ callId: 'call-end-1' });
  });

  it('when the microphone is refused while connecting: the exact alert, a log line, ready again', async () => {
    const { fake, user } = await openBooth({ callId: 'c', deferred: true });
    await user.click(screen.getByRole('button', { name: 'Start Call' }));
    expect(screen.getByRole('progressbar', { name: 'Connecting…' })).toBeInTheDocument();

    const refused = new DOMException('Permission denied', 'NotAllowedError');
    await act(async () => fake.fail(refused));
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent(MICROPHONE);
    expect(alert.textContent).toBe(MICROPHONE);
    expect(console.error).toHaveBeenCalledWith(
      expect.stringContaining('Could not start the call'),
      refused,
    );
    expect(screen.getByRole('button', { name: 'Start Call' })).toBeEnabled();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'End Call' })).not.toBeInTheDocument();
  });

  it('hangs up a call that connects after the visitor left the booth', async () => {
    const { fake, router } = await openBooth({ callId: 'late', deferred: true });
    fireEvent.click(screen.getByRole('button', { name: 'Start Call' }));
    await act(() => router.navigate('/'));
    await act(async () => fake.connect());
    expect(fake.stop).toHaveBeenCalledTimes(1);
  });
});
