import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Account, WebhookDelivery, WebhookDeliveryList } from '@talkbooth/protocol';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { errorResponse, jsonResponse } from '../../../test/render-app';
import { renderConsolePage } from '../test-support';
import { WebhooksPage } from './WebhooksPage';

const VIEWER: Account = {
  id: 'u-viewer',
  username: 'Vera',
  email: 'vera@example.com',
  role: 'viewer',
  organisation: { id: 'org-1', name: 'Riverside Clinic' },
};

function delivery(
  over: Partial<WebhookDelivery> & Pick<WebhookDelivery, 'id' | 'createdAt'>,
): WebhookDelivery {
  return {
    callId: 'call-1',
    url: 'https://hooks.clinic.example/talkbooth',
    messageType: 'status-update',
    status: 'delivered',
    attemptCount: 1,
    nextAttemptAt: null,
    lastStatusCode: 200,
    lastError: null,
    deliveredAt: over.createdAt,
    attempts: [{ attempt: 1, statusCode: 200, error: null, durationMs: 35, at: over.createdAt }],
    ...over,
  };
}

const NEWEST = delivery({
  id: 'd-3',
  createdAt: '2025-03-01T10:05:00.000Z',
  messageType: 'end-of-call-report',
  status: 'failed',
  attemptCount: 2,
  lastStatusCode: 503,
  lastError: 'The listener answered 503 Service Unavailable.',
  deliveredAt: null,
  attempts: [
    {
      attempt: 1,
      statusCode: null,
      error: 'connect ECONNREFUSED',
      durationMs: 4,
      at: '2025-03-01T10:05:01.000Z',
    },
    {
      attempt: 2,
      statusCode: 503,
      error: 'The listener answered 503 Service Unavailable.',
      durationMs: 120,
      at: '2025-03-01T10:05:31.000Z',
    },
  ],
});
const PENDING = delivery({
  id: 'd-2',
  createdAt: '2025-03-01T10:00:00.000Z',
  status: 'pending',
  attemptCount: 0,
  lastStatusCode: null,
  nextAttemptAt: '2025-03-01T10:00:30.000Z',
  deliveredAt: null,
  attempts: [],
});
const OLDEST = delivery({ id: 'd-1', createdAt: '2025-02-28T08:00:00.000Z' });

const renderPage = (ui: ReactNode, account: Account = VIEWER) => renderConsolePage(ui, account);

/** Answers GET /console/api/webhooks with `answer(query)`. */
function stubDeliveries(answer: (query: URLSearchParams) => Response) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname !== '/console/api/webhooks') return errorResponse(404, 'No stub');
    return answer(url.searchParams);
  });
}

const page = (items: WebhookDelivery[], hasMore = false): WebhookDeliveryList => ({
  items,
  hasMore,
});

// Real typing and MUI transitions: slow when the whole suite runs side by side.
describe('the webhooks page', { timeout: 20_000 }, () => {
  it('lists deliveries newest first with type, URL, status, attempts and last answer (any role)', async () => {
    stubDeliveries(() => jsonResponse(page([NEWEST, PENDING, OLDEST])));
    renderPage(<WebhooksPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Webhook deliveries' });
    const rows = within(table)
      .getAllByRole('row')
      .filter((row) => within(row).queryByRole('button') !== null);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent(
      /end-of-call-report.*hooks\.clinic\.example.*Failed.*2.*HTTP 503 · The listener answered 503/,
    );
    expect(rows[1]).toHaveTextContent(/status-update.*Pending.*next try.*0.*—/);
    expect(rows[2]).toHaveTextContent(/status-update.*Delivered.*1.*HTTP 200/);
    expect(screen.getByText('All 3 deliveries are shown.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load older' })).not.toBeInTheDocument();
  });

  it("opens a delivery's attempts: time, status code, error and duration", async () => {
    stubDeliveries(() => jsonResponse(page([NEWEST, PENDING])));
    const user = userEvent.setup();
    renderPage(<WebhooksPage />);
    const [toggle, pendingToggle] = await screen.findAllByRole('button', { name: /^Attempts of/ });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle!);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const attempts = screen.getByRole('table', { name: /^Attempts of end-of-call-report/ });
    const [, first, second] = within(attempts).getAllByRole('row');
    expect(first).toHaveTextContent(/1.*—.*connect ECONNREFUSED.*4 ms/);
    expect(second).toHaveTextContent(
      /2.*503.*The listener answered 503 Service Unavailable\..*120 ms/,
    );

    await user.click(pendingToggle!);
    expect(await screen.findByText('Not tried yet.')).toBeInTheDocument();
    await user.click(toggle!);
    await waitFor(() =>
      expect(
        screen.queryByRole('table', { name: /^Attempts of end-of-call-report/ }),
      ).not.toBeInTheDocument(),
    );
  });

  it('loads older deliveries after the last one shown', async () => {
    const spy = stubDeliveries((query) =>
      jsonResponse(query.has('before') ? page([OLDEST]) : page([NEWEST, PENDING], true)),
    );
    const user = userEvent.setup();
    renderPage(<WebhooksPage />);
    await user.click(await screen.findByRole('button', { name: 'Load older' }));
    expect(await screen.findByText('All 3 deliveries are shown.')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: /^Attempts of/ })).toHaveLength(3);

    const [firstUrl, olderUrl] = spy.mock.calls.map(
      ([input]) => new URL(String(input), 'http://x'),
    );
    expect(firstUrl?.searchParams.get('before')).toBeNull();
    expect(firstUrl?.searchParams.get('limit')).toBe('25');
    expect(olderUrl?.searchParams.get('before')).toBe(PENDING.createdAt);
    expect(olderUrl?.searchParams.get('beforeId')).toBe(PENDING.id);
    expect(screen.queryByRole('button', { name: 'Load older' })).not.toBeInTheDocument();
  });

  it('says what a failed "Load older" was, and keeps what it has', async () => {
    stubDeliveries((query) =>
      query.has('before')
        ? errorResponse(503, 'Try again shortly.')
        : jsonResponse(page([NEWEST], true)),
    );
    const user = userEvent.setup();
    renderPage(<WebhooksPage />);
    await user.click(await screen.findByRole('button', { name: 'Load older' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not load older deliveries. Try again shortly.',
    );
    expect(screen.getAllByRole('button', { name: /^Attempts of/ })).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Load older' })).toBeEnabled();
  });

  it('explains webhooks when there are none yet', async () => {
    stubDeliveries(() => jsonResponse(page([])));
    renderPage(<WebhooksPage />);
    expect(
      await screen.findByRole('heading', { level: 2, name: 'No webhook deliveries yet' }),
    ).toBeInTheDocument();
    expect(
      screen.getByText(/Set a Server URL on an assistant to receive call events/),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the assistants' })).toHaveAttribute(
      'href',
      '/console/assistants',
    );
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('shows a failed load with Retry, and Retry asks again', async () => {
    let calls = 0;
    stubDeliveries(() =>
      ++calls === 1 ? errorResponse(500, 'The database is away.') : jsonResponse(page([OLDEST])),
    );
    const user = userEvent.setup();
    renderPage(<WebhooksPage />);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not load the webhook deliveries. The database is away.',
    );
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('table', { name: 'Webhook deliveries' })).toBeInTheDocument();
  });
});
