import { describe, expect, it } from 'vitest';
import { errorResponse, jsonResponse, mockFetch } from '../test/render-app';
import { ApiRequestError, ResponseFormatError, requestJson } from './api-client';

describe('requestJson', () => {
  it('sends JSON and returns the parsed answer', async () => {
    const spy = mockFetch(jsonResponse({ ok: true }));
    await expect(requestJson('/api/x', { method: 'POST', body: { a: 1 } })).resolves.toEqual({
      ok: true,
    });
    const init = spy.mock.calls[0]?.[1];
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('{"a":1}');
    expect(new Headers(init?.headers).get('Content-Type')).toBe('application/json');
  });

  it('uses GET without a body', async () => {
    const spy = mockFetch(jsonResponse([]));
    await requestJson('/api/y');
    expect(spy.mock.calls[0]?.[1]?.method).toBe('GET');
    expect(spy.mock.calls[0]?.[1]?.body).toBeUndefined();
  });

  it('turns a non-2xx answer into an ApiRequestError with the server message and fields', async () => {
    mockFetch(
      errorResponse(400, 'Check the form.', {
        fields: { email: 'Bad e-mail.' },
        error: 'Bad Request',
      }),
    );
    const error = await requestJson('/api/z').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({
      status: 400,
      message: 'Check the form.',
      fields: { email: 'Bad e-mail.' },
      retryAfterSeconds: null,
    });
  });

  it('reads Retry-After seconds', async () => {
    mockFetch(errorResponse(429, 'Slow down.', { headers: { 'Retry-After': '900' } }));
    await expect(requestJson('/api/z')).rejects.toMatchObject({
      status: 429,
      retryAfterSeconds: 900,
    });
  });

  it('explains an error answer that has no API error body', async () => {
    mockFetch(new Response('nope', { status: 404, statusText: 'Not Found' }));
    await expect(requestJson('/api/z')).rejects.toMatchObject({
      status: 404,
      message: 'The request failed (status 404 Not Found).',
      body: null,
    });
  });

  it('rejects a 2xx answer that is not JSON with ResponseFormatError', async () => {
    mockFetch(new Response('<!doctype html>', { status: 200 }));
    await expect(requestJson('/api/z')).rejects.toBeInstanceOf(ResponseFormatError);
  });

  it('lets network errors through', async () => {
    mockFetch(new TypeError('Failed to fetch'));
    await expect(requestJson('/api/z')).rejects.toThrow(new TypeError('Failed to fetch'));
  });
});
