import { render } from '@testing-library/react';
import type { ClientConfig, TalkDocument } from '@talkbooth/protocol';
import { vi } from 'vitest';
import { AppProviders } from '../app/AppProviders';
import { DEFAULT_CLIENT_CONFIG } from '../app/client-config';
import { VisitorApp } from '../app/VisitorApp';
import type { CallService } from '../features/call-booth/call-service';
import { memoryRouter } from './memory-router';

export const TEST_CONFIG: ClientConfig = { ...DEFAULT_CLIENT_CONFIG };

export const TEST_DOCUMENTS: TalkDocument[] = [
  {
    id: 'product',
    title: 'Riverside Clinic',
    tagline: 'Talk to our assistant before your visit',
    support: 'reception@riverside.example',
  },
];

interface RenderAppOptions {
  /** The address to start at, e.g. "/call-section" or "/?unicode=abc". */
  path?: string;
  config?: Partial<ClientConfig>;
  callService?: CallService;
}

/**
 * Renders the visitor pages at an address kept in memory, with fixed configuration (no config
 * fetch). `router` is that address (wouter's `memoryLocation`): `router.state.location`,
 * `router.navigate()`.
 */
export function renderApp({ path = '/', config, callService }: RenderAppOptions = {}) {
  const router = memoryRouter(path);
  const result = render(
    <AppProviders
      config={{ ...TEST_CONFIG, ...config }}
      talkDocuments={TEST_DOCUMENTS}
      callService={callService}
    >
      <VisitorApp location={router.hook} />
    </AppProviders>,
  );
  return { ...result, router };
}

/** A JSON answer as the server would send it. */
export function jsonResponse(body: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(body), {
    status: 200,
    ...init,
    headers: { 'Content-Type': 'application/json', ...(init.headers as Record<string, string>) },
  });
}

/** The API's error body for a non-2xx answer. */
export function errorResponse(
  status: number,
  message: string,
  extra: { error?: string; fields?: Record<string, string>; headers?: Record<string, string> } = {},
): Response {
  const body: Record<string, unknown> = {
    statusCode: status,
    error: extra.error ?? 'Error',
    message,
  };
  if (extra.fields) body.fields = extra.fields;
  return jsonResponse(body, { status, headers: extra.headers ?? {} });
}

/** Spies on fetch; each call takes the next queued answer (a Response, or an Error to throw). */
export function mockFetch(...answers: Array<Response | Error | (() => Promise<Response>)>) {
  const spy = vi.spyOn(globalThis, 'fetch');
  for (const answer of answers) {
    if (answer instanceof Error) spy.mockRejectedValueOnce(answer);
    else if (typeof answer === 'function') spy.mockImplementationOnce(answer);
    else spy.mockResolvedValueOnce(answer);
  }
  return spy;
}

/** The parsed JSON body of the n-th fetch call. */
export function requestBody(spy: ReturnType<typeof mockFetch>, call = 0): unknown {
  const init = spy.mock.calls[call]?.[1];
  return typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
}
