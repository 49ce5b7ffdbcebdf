import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode } from 'react';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '../../app/AppProviders';
import { VisitorApp } from '../../app/VisitorApp';
import { memoryRouter } from '../../test/memory-router';
import {
  TEST_CONFIG,
  TEST_DOCUMENTS,
  errorResponse,
  jsonResponse,
  mockFetch,
  renderApp,
  requestBody,
} from '../../test/render-app';

const SESSION = {
  assistantId: 'asst-123',
  assistantName: 'Riverside Helper',
  product: 'medibrief',
};

async function submitCode(code: string) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('UniCode'), code);
  await user.click(screen.getByRole('button', { name: /Talk to Assistant/ }));
  return user;
}

describe('code entry', () => {
  it('shows the heading, the UniCode field and the button', () => {
    renderApp();
    expect(
      screen.getByRole('heading', { level: 1, name: 'Talk to Assistant' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'UniCode' })).toHaveValue('');
    expect(screen.getByRole('button', { name: 'Talk to Assistant' })).toBeEnabled();
    expect(screen.getByRole('link', { name: 'Create an account' })).toHaveAttribute(
      'href',
      '/register',
    );
    expect(screen.getByText(/Riverside Clinic · Talk to our assistant/)).toBeInTheDocument();
    expect(document.title).toBe('Talk to Assistant · Riverside Clinic');
  });

  it('sends the code exactly as typed and stores a session object, then opens the booth', async () => {
    const fetchSpy = mockFetch(jsonResponse(SESSION));
    const { router } = renderApp();
    await submitCode(' AbC-12 ');

    await waitFor(() => expect(router.state.location.pathname).toBe('/call-section'));
    expect(router.state.historyAction).toBe('PUSH');
    expect(fetchSpy).toHaveBeenCalledTimes(1);
    expect(fetchSpy.mock.calls[0]?.[0]).toBe('/api/get-assistant');
    expect(fetchSpy.mock.calls[0]?.[1]?.method).toBe('POST');
    expect(requestBody(fetchSpy)).toEqual({ unicode: ' AbC-12 ' });
    expect(JSON.parse(sessionStorage.getItem('apiResponse') ?? 'null')).toEqual(SESSION);
  });

  it('stores any non-array object whole, even with unknown fields', async () => {
    const odd = { assistantId: 'x', extra: { nested: true } };
    mockFetch(jsonResponse(odd));
    const { router } = renderApp();
    await submitCode('code');
    await waitFor(() => expect(router.state.location.pathname).toBe('/call-section'));
    expect(sessionStorage.getItem('apiResponse')).toBe(JSON.stringify(odd));
  });

  it('says "Invalid UniCode" for an empty array and stays on the page', async () => {
    mockFetch(jsonResponse([]));
    const { router } = renderApp();
    await submitCode('nope');
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid UniCode');
    expect(router.state.location.pathname).toBe('/');
    expect(sessionStorage.getItem('apiResponse')).toBeNull();
    expect(screen.getByRole('button', { name: 'Talk to Assistant' })).toBeEnabled();
  });

  it.each([
    ['a non-empty array', jsonResponse([SESSION])],
    ['a string', jsonResponse('hello')],
    ['null', jsonResponse(null)],
    ['a number', jsonResponse(42)],
    ['a non-JSON body', new Response('<html>oops</html>', { status: 200 })],
  ])('says "Unexpected response format" for %s', async (_label, answer) => {
    mockFetch(answer);
    const { router } = renderApp();
    await submitCode('abc');
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Unexpected response format$/);
    expect(router.state.location.pathname).toBe('/');
    expect(sessionStorage.getItem('apiResponse')).toBeNull();
  });

  it("shows the server's message for a failed request", async () => {
    mockFetch(errorResponse(400, 'Send the access code as a string field "unicode".'));
    renderApp();
    await submitCode('abc');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Error validating credentials: Send the access code as a string field "unicode".',
    );
  });

  it('falls back to a status message when an error answer has no JSON body', async () => {
    mockFetch(new Response('Bad gateway', { status: 502, statusText: 'Bad Gateway' }));
    renderApp();
    await submitCode('abc');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      /^Error validating credentials: The server had a problem \(status 502\)/,
    );
  });

  it('shows the network error message', async () => {
    mockFetch(new TypeError('Failed to fetch'));
    renderApp();
    await submitCode('abc');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Error validating credentials: Failed to fetch',
    );
  });

  it('shows the rate-limit message as the server wrote it', async () => {
    const message = 'Too many wrong codes from your network. Try again in 15 minutes.';
    mockFetch(errorResponse(429, message, { headers: { 'Retry-After': '900' } }));
    renderApp();
    await submitCode('abc');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      `Error validating credentials: ${message}`,
    );
    expect(screen.getByRole('alert')).not.toHaveTextContent(/15 minutes.*15 minutes/);
  });

  it('adds the wait time from Retry-After when the 429 message has none', async () => {
    mockFetch(errorResponse(429, 'Too many wrong codes.', { headers: { 'Retry-After': '120' } }));
    renderApp();
    await submitCode('abc');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Error validating credentials: Too many wrong codes. Try again in 2 minutes.',
    );
  });

  it('disables the button and shows a spinner while the request runs', async () => {
    let answer: (response: Response) => void = () => undefined;
    mockFetch(() => new Promise<Response>((resolve) => (answer = resolve)));
    renderApp();
    await submitCode('abc');

    const button = screen.getByRole('button', { name: /Talk to Assistant/ });
    expect(button).toBeDisabled();
    expect(screen.getByRole('progressbar', { name: 'Checking the UniCode…' })).toBeInTheDocument();

    answer(jsonResponse([]));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid UniCode');
    expect(button).toBeEnabled();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('asks for a code instead of sending an empty one', async () => {
    const fetchSpy = mockFetch();
    renderApp();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Talk to Assistant' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Enter the UniCode you received, then press Talk to Assistant.',
    );
    expect(screen.getByRole('textbox', { name: 'UniCode' })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('submits with Enter in the field', async () => {
    const fetchSpy = mockFetch(jsonResponse([]));
    renderApp();
    await userEvent.setup().type(screen.getByLabelText('UniCode'), 'xyz{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid UniCode');
    expect(requestBody(fetchSpy)).toEqual({ unicode: 'xyz' });
  });

  it('pre-fills ?unicode= and checks it once on load, even in StrictMode', async () => {
    const fetchSpy = mockFetch(jsonResponse([]), jsonResponse([]));
    const router = memoryRouter('/?unicode=Ab%20C');
    render(
      <StrictMode>
        <AppProviders config={TEST_CONFIG} talkDocuments={TEST_DOCUMENTS}>
          <VisitorApp location={router.hook} />
        </AppProviders>
      </StrictMode>,
    );
    expect(screen.getByRole('textbox', { name: 'UniCode' })).toHaveValue('Ab C');
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid UniCode');
    expect(fetchSpy).toHaveBeenCalledTimes(1);
    expect(requestBody(fetchSpy)).toEqual({ unicode: 'Ab C' });
  });

  it('checks a code in the path (/:unicode) on load and opens the booth', async () => {
    const fetchSpy = mockFetch(jsonResponse(SESSION));
    const { router } = renderApp({ path: '/RIV-2024' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/call-section'));
    // Replaced, so Back does not land on the code that forwards here again.
    expect(router.state.historyAction).toBe('REPLACE');
    expect(fetchSpy).toHaveBeenCalledTimes(1);
    expect(requestBody(fetchSpy)).toEqual({ unicode: 'RIV-2024' });
  });

  it.each(['/login', '/medibrief', '/'])('does not check anything on %s', async (path) => {
    const fetchSpy = mockFetch();
    renderApp({ path });
    expect(screen.getByRole('heading', { name: 'Talk to Assistant' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'UniCode' })).toHaveValue('');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('checks again when the address brings a new code', async () => {
    const fetchSpy = mockFetch(jsonResponse([]), jsonResponse([]));
    const { router } = renderApp({ path: '/first' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid UniCode');
    await router.navigate('/second');
    await waitFor(() => expect(fetchSpy).toHaveBeenCalledTimes(2));
    expect(requestBody(fetchSpy, 1)).toEqual({ unicode: 'second' });
    expect(screen.getByRole('textbox', { name: 'UniCode' })).toHaveValue('second');
  });
});
