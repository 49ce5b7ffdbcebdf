import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Account } from '@talkbooth/protocol';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { errorResponse, jsonResponse } from '../../../test/render-app';
import { AccountContext } from '../account-context';
import { CallPage } from './CallPage';
import { CallsPage } from './CallsPage';

const VIEWER: Account = {
  id: 'u-1',
  username: 'Ada',
  email: 'ada@example.com',
  role: 'viewer',
  organisation: { id: 'org-1', name: 'Riverside Clinic' },
};

function renderAt(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <AccountContext.Provider value={{ account: VIEWER, signedOut: vi.fn() }}>
        <Routes>
          <Route path="/console/calls" element={<CallsPage />} />
          <Route path="/console/calls/:id" element={<CallPage />} />
        </Routes>
      </AccountContext.Provider>
    </MemoryRouter>,
  );
}

const SUMMARY = {
  id: 'call-1',
  createdAt: '2026-03-02T09:30:00Z',
  startedAt: '2026-03-02T09:30:01Z',
  endedAt: '2026-03-02T09:32:06Z',
  durationSeconds: 125,
  assistantId: 'as-1',
  assistantName: 'Front desk',
  status: 'ended',
  endedReason: 'customer-ended-call',
  rating: 4,
  urgent: true,
  hasBrief: true,
};

describe('the calls list', () => {
  it('shows each call’s duration, reason, rating and flags, and asks again when a filter changes', async () => {
    const fetchSpy = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async () =>
        jsonResponse({ items: [SUMMARY], total: 1, page: 1, pageSize: 20 }),
      );
    renderAt('/console/calls');
    const table = await screen.findByRole('table', { name: 'Calls' });
    const row = within(table).getAllByRole('row')[1]!;
    expect(row).toHaveTextContent('Front desk');
    expect(row).toHaveTextContent('2 min 05 s');
    expect(row).toHaveTextContent('Customer ended call');
    expect(row).toHaveTextContent('4 of 5');
    expect(row).toHaveTextContent('Urgent');
    expect(row).toHaveTextContent('Brief');
    expect(within(row).getByRole('link')).toHaveAttribute('href', '/console/calls/call-1');

    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: 'Urgent' }));
    await user.click(screen.getByRole('option', { name: 'Urgent only' }));
    await vi.waitFor(() =>
      expect(String(fetchSpy.mock.calls.at(-1)?.[0])).toBe('/console/api/calls?urgent=true'),
    );
  });

  it('says when there are no calls, and offers the briefs of a date range as CSV', async () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () =>
      jsonResponse({ items: [], total: 0, page: 1, pageSize: 20 }),
    );
    renderAt('/console/calls');
    expect(await screen.findByText(/No calls yet/)).toBeInTheDocument();
    const link = screen.getByRole('link', { name: 'Download CSV' });
    expect(link.getAttribute('href')).toMatch(/^\/console\/api\/briefs\.csv\?from=.+&to=.+/);
    const user = userEvent.setup();
    const to = screen.getByLabelText('To');
    await user.clear(to);
    await user.type(to, '2000-01-01');
    expect(screen.getByRole('button', { name: 'Download CSV' })).toBeDisabled();
    expect(screen.getByText('Pick an end on or after the start.')).toBeInTheDocument();
  });
});

describe('a call’s page', () => {
  it('shows the brief as fields, the transcript with times, feedback and per-turn latency', async () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const path = new URL(String(input), 'http://localhost').pathname;
      if (path === '/console/api/calls/call-1/feedback') {
        return jsonResponse([
          { rating: 5, message: 'Very clear', createdAt: '2026-03-02T09:33:00Z' },
        ]);
      }
      if (path === '/platform/call/call-1') {
        return jsonResponse({
          id: 'call-1',
          orgId: 'org-1',
          type: 'webCall',
          status: 'ended',
          endedReason: 'customer-ended-call',
          createdAt: '2026-03-02T09:30:00Z',
          updatedAt: '2026-03-02T09:32:06Z',
          startedAt: '2026-03-02T09:30:01Z',
          endedAt: '2026-03-02T09:32:06Z',
          summary: 'A pre-visit brief was taken.',
          messages: [
            { role: 'bot', message: 'Hello, how can I help?', secondsFromStart: 0.4 },
            { role: 'user', message: 'my knee hurts', secondsFromStart: 7.2 },
          ],
          analysis: {
            structuredData: {
              brief: { reason: 'my knee hurts', allergies: null },
              confirmed: false,
              urgent: false,
            },
          },
          latency: {
            turns: [
              {
                turn: 1,
                voiceToVoiceMs: 612.4,
                recognitionMs: 40,
                firstAudioMs: 300,
                recognitionModel: 'domain',
              },
            ],
          },
        });
      }
      return errorResponse(404, 'No stub');
    });
    renderAt('/console/calls/call-1');
    expect(await screen.findByRole('heading', { level: 1, name: /^Call of / })).toBeInTheDocument();
    const brief = screen.getByRole('region', { name: 'Brief' });
    expect(brief).toHaveTextContent(/Reason\s*my knee hurts/);
    expect(brief).toHaveTextContent(/Allergies\s*Not answered/);
    expect(brief).toHaveTextContent('Not confirmed by the caller.');
    const transcript = screen.getByRole('list', { name: 'Transcript' });
    expect(transcript).toHaveTextContent('0:07Caller:my knee hurts');
    expect(screen.getByRole('region', { name: 'Visitor feedback' })).toHaveTextContent(
      'Rated 5 of 5“Very clear”',
    );
    expect(screen.getByRole('table', { name: 'Response time per turn' })).toHaveTextContent(
      '612 ms',
    );
    expect(screen.getByRole('link', { name: 'Print the brief' })).toHaveAttribute(
      'href',
      '/console/calls/call-1/brief',
    );
    expect(screen.queryByRole('region', { name: 'Recording' })).toBeNull();
  });
});
