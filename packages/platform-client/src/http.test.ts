import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PlatformClient, PlatformError, PlatformTimeoutError } from './index.js';
import { startStubServer, type StubServer } from './test-support/stub-server.js';

let stub: StubServer;
let client: PlatformClient;

beforeAll(async () => {
  stub = await startStubServer();
});
afterAll(() => stub.close());
beforeEach(() => {
  stub.requests.length = 0;
  client = new PlatformClient({ token: 'tok', baseUrl: `${stub.url}/platform` });
});

/** The rejection of a promise that must reject. */
async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

describe('PlatformError', () => {
  it('carries status, JSON body, method, path and the body message for a 404', async () => {
    const body = {
      statusCode: 404,
      error: 'Not Found',
      message: 'No assistant with id nope',
    };
    stub.answerWith({ status: 404, body });
    const error = await rejectionOf(client.assistant.get('nope'));

    expect(error).toBeInstanceOf(PlatformError);
    expect(error).toBeInstanceOf(Error);
    const platformError = error as PlatformError;
    expect(platformError.name).toBe('PlatformError');
    expect(platformError.status).toBe(404);
    expect(platformError.statusText).toBe('Not Found');
    expect(platformError.body).toEqual(body);
    expect(platformError.apiError).toEqual(body);
    expect(platformError.method).toBe('GET');
    expect(platformError.path).toBe('/assistant/nope');
    expect(platformError.message).toBe('404 Not Found — No assistant with id nope');
    expect(String(platformError)).toBe('PlatformError: 404 Not Found — No assistant with id nope');
  });

  it('keeps per-field messages of a validation error', async () => {
    const body = {
      statusCode: 400,
      error: 'Bad Request',
      message: 'The assistant is not valid.',
      fields: { 'model.temperature': 'Too big.' },
    };
    stub.answerWith({ status: 400, body });
    const error = (await rejectionOf(client.assistant.create({}))) as PlatformError;
    expect(error.method).toBe('POST');
    expect(error.apiError?.fields).toEqual({ 'model.temperature': 'Too big.' });
  });

  it('keeps the raw text of a non-JSON 502 and uses the status text', async () => {
    const html = '<html><body>502 Bad Gateway</body></html>';
    stub.answerWith({ status: 502, body: html, contentType: 'text/html' });
    const error = await rejectionOf(client.call.list({ limit: 1 }));

    expect(error).toBeInstanceOf(PlatformError);
    const platformError = error as PlatformError;
    expect(platformError.status).toBe(502);
    expect(platformError.body).toBe(html);
    expect(platformError.apiError).toBeUndefined();
    expect(platformError.message).toBe('502 Bad Gateway');
    expect(platformError.path).toBe('/call');
  });

  it('keeps other JSON error shapes, joining a list of messages', async () => {
    const body = { statusCode: 400, error: 'Bad Request', message: ['a must be a string', 'b'] };
    stub.answerWith({ status: 400, body });
    const error = (await rejectionOf(client.call.createWeb({ assistantId: 'x' }))) as PlatformError;
    expect(error.body).toEqual(body);
    expect(error.apiError).toBeUndefined();
    expect(error.message).toBe('400 Bad Request — a must be a string; b');
  });

  it('uses the status text when the JSON body has no message', async () => {
    stub.answerWith({ status: 409, body: { reason: 'taken' } });
    const error = (await rejectionOf(client.credential.delete('c'))) as PlatformError;
    expect(error.message).toBe('409 Conflict');
    expect(error.body).toEqual({ reason: 'taken' });
  });

  it('throws on a 2xx whose body is not JSON, keeping the status', async () => {
    stub.answerWith({ status: 200, body: '<html>login</html>', contentType: 'text/html' });
    const error = (await rejectionOf(client.assistant.list())) as PlatformError;
    expect(error).toBeInstanceOf(PlatformError);
    expect(error.status).toBe(200);
    expect(error.body).toBe('<html>login</html>');
    expect(error.message).toMatch(
      /^200 OK — GET \/assistant answered with a body that is not JSON$/,
    );
  });

  it('throws on a 2xx with an empty body', async () => {
    stub.answerWith({ status: 201, body: '' });
    const error = (await rejectionOf(client.accessCode.revoke('ac'))) as PlatformError;
    expect(error.status).toBe(201);
    expect(error.body).toBe('');
    expect(error.message).toContain('empty body');
  });

  it('parses JSON whatever the content type says', async () => {
    stub.answerWith({ status: 200, body: '{"id":"x"}', contentType: 'text/plain' });
    await expect(client.assistant.get('x')).resolves.toEqual({ id: 'x' });
  });
});

describe('timeout', () => {
  it('rejects with PlatformTimeoutError after the client timeout, and drops the request', async () => {
    stub.answerWith('hang');
    const quick = new PlatformClient({ token: 't', baseUrl: stub.url, timeoutMs: 150 });
    const started = performance.now();
    const error = await rejectionOf(quick.assistant.get('slow'));
    const elapsed = performance.now() - started;

    expect(error).toBeInstanceOf(PlatformTimeoutError);
    expect(error).not.toBeInstanceOf(PlatformError);
    const timeout = error as PlatformTimeoutError;
    expect(timeout.name).toBe('PlatformTimeoutError');
    expect(timeout.method).toBe('GET');
    expect(timeout.path).toBe('/assistant/slow');
    expect(timeout.timeoutMs).toBe(150);
    expect(timeout.message).toBe('GET /assistant/slow got no answer within 150 ms');
    expect(elapsed).toBeGreaterThanOrEqual(140);
    expect(elapsed).toBeLessThan(2_000);
    // The connection was really given up, not just the promise.
    await stub.abandoned(1);
    expect(stub.requests[0]!.abandoned).toBe(true);
  });

  it('takes a per-call timeout over the client one, with a caller signal present', async () => {
    stub.answerWith('hang');
    const controller = new AbortController();
    const started = performance.now();
    const error = await rejectionOf(
      client.metrics.get(undefined, { timeoutMs: 100, signal: controller.signal }),
    );
    expect(error).toBeInstanceOf(PlatformTimeoutError);
    expect((error as PlatformTimeoutError).timeoutMs).toBe(100);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('times out even when an injected fetch ignores the signal', async () => {
    const deaf = new PlatformClient({
      token: 't',
      timeoutMs: 50,
      fetch: () => new Promise<Response>(() => {}),
    });
    await expect(deaf.assistant.list()).rejects.toBeInstanceOf(PlatformTimeoutError);
  });

  it('times out while the body is still arriving', async () => {
    const slowBody = new PlatformClient({
      token: 't',
      timeoutMs: 100,
      fetch: () =>
        Promise.resolve(new Response(new ReadableStream({ start() {} }), { status: 200 })),
    });
    await expect(slowBody.assistant.list()).rejects.toBeInstanceOf(PlatformTimeoutError);
  });
});

describe('caller abort', () => {
  it("rejects with the caller's reason, not a timeout", async () => {
    stub.answerWith('hang');
    const controller = new AbortController();
    const reason = new Error('user left the page');
    const pending = rejectionOf(client.assistant.list(undefined, { signal: controller.signal }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort(reason);
    const error = await pending;

    expect(error).toBe(reason);
    await stub.abandoned(1);
  });

  it('rejects with an AbortError when aborted without a reason', async () => {
    stub.answerWith('hang');
    const controller = new AbortController();
    const pending = rejectionOf(client.call.get('c1', { signal: controller.signal }));
    setTimeout(() => controller.abort(), 30);
    const error = await pending;
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('AbortError');
    expect(error).not.toBeInstanceOf(PlatformTimeoutError);
  });

  it('rejects at once, sending nothing, when the signal is already aborted', async () => {
    const reason = new Error('already gone');
    const error = await rejectionOf(
      client.assistant.create({}, { signal: AbortSignal.abort(reason) }),
    );
    expect(error).toBe(reason);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(stub.requests).toHaveLength(0);
  });

  it('lets the caller abort win over a later timeout when no timeout is set', async () => {
    stub.answerWith('hang');
    const controller = new AbortController();
    const pending = rejectionOf(
      client.assistant.list(undefined, { signal: controller.signal, timeoutMs: Infinity }),
    );
    setTimeout(() => controller.abort('stop'), 30);
    expect(await pending).toBe('stop');
  });
});

describe('network failure', () => {
  it("passes fetch's own error through", async () => {
    const closed = await startStubServer();
    const url = closed.url;
    await closed.close();
    const offline = new PlatformClient({ token: 't', baseUrl: url });
    const error = await rejectionOf(offline.assistant.list());
    expect(error).toBeInstanceOf(TypeError);
    expect(error).not.toBeInstanceOf(PlatformTimeoutError);
  });
});
