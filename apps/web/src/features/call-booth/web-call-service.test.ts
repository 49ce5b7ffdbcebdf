import type { ClientConfig, ServerMessage } from '@talkbooth/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CallRefusedError, CallUnavailableError, unavailableCallService } from './call-service';
import type { CallEvent } from './call-service';
import { BOOTH_CALL_CONFIG, createWebCallService } from './web-call-service';
import type { WebCallClientLike } from './web-call-service';

const CONFIG: ClientConfig = {
  product: 'medibrief',
  productName: 'medibrief',
  talkHomeUrl: '/',
  platformBaseUrl: 'http://talk.example/platform',
  platformPublicKey: 'pk-test-123',
};

type Handler = (...args: unknown[]) => void;

/** A stand-in for `WebCallClient`: records calls, and `fire` plays client events. */
function fakeClient(startResult: () => Promise<{ id: string } | null>) {
  const handlers = new Map<string, Handler[]>();
  let muted = false;
  const client = {
    start: vi.fn<WebCallClientLike['start']>(startResult),
    stop: vi.fn<WebCallClientLike['stop']>(),
    setMuted: vi.fn<WebCallClientLike['setMuted']>((value) => {
      muted = value;
    }),
    isMuted: vi.fn<WebCallClientLike['isMuted']>(() => muted),
    // One implementation for the typed overloads of `on`.
    on: ((event: string, handler: Handler) => {
      handlers.set(event, [...(handlers.get(event) ?? []), handler]);
    }) as WebCallClientLike['on'],
  };
  return {
    client,
    fire(event: string, ...args: unknown[]) {
      for (const handler of handlers.get(event) ?? []) handler(...args);
    },
    message(message: ServerMessage) {
      for (const handler of handlers.get('message') ?? []) handler(message);
    },
  };
}

/** A service over one fake client; `events` collects what the booth would hear. */
function setup(
  startResult: () => Promise<{ id: string } | null> = () => Promise.resolve({ id: 'call-1' }),
  config: ClientConfig = CONFIG,
) {
  const fake = fakeClient(startResult);
  const createClient = vi.fn((_key: string, _url: string) => Promise.resolve(fake.client));
  const service = createWebCallService(config, { createClient, connectTimeoutMs: 1_000 });
  const events: CallEvent[] = [];
  const listener = (event: CallEvent) => events.push(event);
  return { ...fake, createClient, service, events, listener };
}

/** Lets pending promise callbacks run. */
const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

async function startedCall(startResult?: () => Promise<{ id: string } | null>) {
  const context = setup(startResult);
  const starting = context.service.start({ assistantId: 'asst-42' }, context.listener);
  await flush();
  context.fire('call-start');
  const call = await starting;
  return { ...context, call };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('createWebCallService', () => {
  it('keeps calls unavailable while the server hands out no public key', async () => {
    const createClient = vi.fn();
    for (const key of [null, '', '  ']) {
      const service = createWebCallService({ ...CONFIG, platformPublicKey: key }, { createClient });
      expect(service).toBe(unavailableCallService);
      await expect(service.start({ assistantId: 'a' }, () => undefined)).rejects.toBeInstanceOf(
        CallUnavailableError,
      );
    }
    expect(createClient).not.toHaveBeenCalled();
  });

  it('makes the client with the public key and base URL, and starts the assistant with the booth configuration', async () => {
    const { client, createClient, call } = await startedCall();
    expect(createClient).toHaveBeenCalledWith('pk-test-123', 'http://talk.example/platform');
    expect(client.start).toHaveBeenCalledTimes(1);
    expect(client.start).toHaveBeenCalledWith('asst-42', {
      transcriber: { provider: 'deepgram', model: 'nova-2', language: 'en-US' },
      recordingEnabled: false,
      variableValues: { name: 'Alex' },
      firstMessage: 'Hello {{name}}, how can I help you today?',
    });
    expect(client.start.mock.calls[0]?.[1]).toEqual(BOOTH_CALL_CONFIG);
    expect(call.id).toBe('call-1');
  });

  it('starts with the key the code check gave (the code’s organisation’s) over the configured one', async () => {
    const context = setup();
    const starting = context.service.start(
      { assistantId: 'asst-42', publicKey: 'pk-dental-777' },
      context.listener,
    );
    await flush();
    context.fire('call-start');
    await starting;
    expect(context.createClient).toHaveBeenCalledWith(
      'pk-dental-777',
      'http://talk.example/platform',
    );
  });

  it('turns a relative platform path into an absolute URL', async () => {
    const { createClient, service, listener } = setup(() => Promise.resolve({ id: 'c' }), {
      ...CONFIG,
      platformBaseUrl: '/platform/',
    });
    void service.start({ assistantId: 'a' }, listener).catch(() => undefined);
    await flush();
    expect(createClient).toHaveBeenCalledWith('pk-test-123', `${window.location.origin}/platform`);
  });

  it('resolves only once the assistant is ready (call-start after start gave a call)', async () => {
    const { service, listener, fire, events } = setup();
    let settled = false;
    const starting = service.start({ assistantId: 'a' }, listener).finally(() => {
      settled = true;
    });
    await flush();
    expect(settled).toBe(false);
    fire('call-start');
    await expect(starting).resolves.toMatchObject({ id: 'call-1' });
    expect(events).toEqual([{ type: 'call-start' }]);
  });

  it('also resolves when call-start comes before start() has answered', async () => {
    let answer: (call: { id: string }) => void = () => undefined;
    const { service, listener, fire } = setup(
      () => new Promise<{ id: string }>((resolve) => (answer = resolve)),
    );
    const starting = service.start({ assistantId: 'a' }, listener);
    await flush();
    fire('call-start');
    answer({ id: 'early' });
    await expect(starting).resolves.toMatchObject({ id: 'early' });
  });

  it('rejects with the error event when the microphone is refused (start gives null)', async () => {
    const refused = new DOMException('Permission denied', 'NotAllowedError');
    let answer: (call: null) => void = () => undefined;
    const { service, listener, fire, client } = setup(
      () => new Promise<null>((resolve) => (answer = resolve)),
    );
    const starting = service.start({ assistantId: 'a' }, listener);
    await flush();
    fire('error', refused);
    answer(null);
    await expect(starting).rejects.toBe(refused);
    expect(client.stop).toHaveBeenCalled();
  });

  it('rejects when start gives null without an error, or throws', async () => {
    const quiet = setup(() => Promise.resolve(null));
    await expect(quiet.service.start({ assistantId: 'a' }, quiet.listener)).rejects.toThrow(
      'The call could not be started.',
    );
    const broken = setup(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(broken.service.start({ assistantId: 'a' }, broken.listener)).rejects.toThrow(
      'Failed to fetch',
    );
  });

  it('rejects with the server error when the call ends before the assistant is ready', async () => {
    const { service, listener, message, fire } = setup();
    const starting = service.start({ assistantId: 'a' }, listener);
    await flush();
    message({ type: 'error', error: 'This call has already started or ended.' });
    fire('call-end');
    await expect(starting).rejects.toThrow('This call has already started or ended.');
  });

  it("rejects with the server's own message when it refuses the call (lines busy, restarting)", async () => {
    for (const status of [429, 503]) {
      // The client reports the error, then its start() gives null (as the real one does).
      let answer: (call: null) => void = () => undefined;
      const { service, listener, fire, client } = setup(
        () => new Promise<null>((resolve) => (answer = resolve)),
      );
      const starting = service.start({ assistantId: 'a' }, listener);
      await flush();
      fire(
        'error',
        Object.assign(new Error(`Could not start the call: busy (HTTP ${status}).`), {
          kind: 'http',
          status,
          body: {
            statusCode: status,
            message: 'All lines are busy. Please try again in a minute.',
          },
        }),
      );
      answer(null);
      const error = await starting.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CallRefusedError);
      expect((error as Error).message).toBe('All lines are busy. Please try again in a minute.');
      expect(client.stop).toHaveBeenCalled();
    }
  });

  it('rejects with the message the server sent before refusing the socket, not the close', async () => {
    const { service, listener, message, fire } = setup(() => new Promise(() => undefined));
    const starting = service.start({ assistantId: 'a' }, listener);
    await flush();
    message({ type: 'error', error: 'This server is shutting down and takes no new calls.' });
    fire(
      'error',
      Object.assign(new Error('The call socket was refused (4503).'), {
        kind: 'connection-refused',
      }),
    );
    const error = await starting.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CallRefusedError);
    expect((error as Error).message).toBe('This server is shutting down and takes no new calls.');
  });

  it('keeps other HTTP failures as they came (a 403 is for the developer, not the visitor)', async () => {
    let answer: (call: null) => void = () => undefined;
    const { service, listener, fire } = setup(
      () => new Promise<null>((resolve) => (answer = resolve)),
    );
    const starting = service.start({ assistantId: 'a' }, listener);
    await flush();
    const forbidden = Object.assign(new Error('Could not start the call: origin (HTTP 403).'), {
      kind: 'http',
      status: 403,
      body: { message: 'This public key only works from https://clinic.example.' },
    });
    fire('error', forbidden);
    answer(null);
    await expect(starting).rejects.toBe(forbidden);
  });

  it('gives up and hangs up when the assistant does not get ready in time', async () => {
    vi.useFakeTimers();
    const { service, listener, client } = setup();
    const starting = service.start({ assistantId: 'a' }, listener);
    const outcome = expect(starting).rejects.toThrow('The assistant did not get ready in time.');
    await vi.advanceTimersByTimeAsync(1_000);
    await outcome;
    expect(client.stop).toHaveBeenCalledTimes(1);
  });

  it('reports transcripts, the assistant speaking, and its voice level', async () => {
    const { fire, message, events } = await startedCall();
    events.length = 0;
    message({ type: 'transcript', role: 'user', transcriptType: 'partial', transcript: 'Hel' });
    message({ type: 'transcript', role: 'user', transcriptType: 'final', transcript: 'Hello' });
    message({
      type: 'transcript',
      role: 'assistant',
      transcriptType: 'final',
      transcript: 'Hi Alex',
    });
    fire('speech-start');
    fire('volume-level', 0.4);
    fire('volume-level', 7);
    fire('volume-level', Number.NaN);
    fire('speech-end');
    message({ type: 'conversation-update', conversation: [] });
    expect(events).toEqual([
      { type: 'transcript', role: 'user', transcriptType: 'partial', text: 'Hel' },
      { type: 'transcript', role: 'user', transcriptType: 'final', text: 'Hello' },
      { type: 'transcript', role: 'assistant', transcriptType: 'final', text: 'Hi Alex' },
      { type: 'speech-start' },
      { type: 'volume-level', level: 0.4 },
      { type: 'volume-level', level: 1 },
      { type: 'volume-level', level: 0 },
      { type: 'speech-end' },
    ]);
  });

  it('reports the assistant ending the call once, with the ended reason', async () => {
    const { fire, message, events } = await startedCall();
    events.length = 0;
    message({ type: 'hang' });
    message({ type: 'status-update', status: 'ended', endedReason: 'assistant-ended-call' });
    fire('call-end');
    fire('volume-level', 0.5);
    expect(events).toEqual([{ type: 'call-end', reason: 'assistant-ended-call' }]);
  });

  it('reports call-end from the client, with its ended reason when it has one', async () => {
    const first = await startedCall();
    first.events.length = 0;
    first.fire('call-end', { endedReason: 'silence-timed-out' });
    expect(first.events).toEqual([{ type: 'call-end', reason: 'silence-timed-out' }]);

    const second = await startedCall();
    second.events.length = 0;
    second.fire('call-end', {});
    expect(second.events).toEqual([{ type: 'call-end' }]);
  });

  it('hanging up after the assistant ended still releases the client, unless it let go already', async () => {
    const ending = await startedCall();
    ending.message({ type: 'status-update', status: 'ended', endedReason: 'assistant-ended-call' });
    await ending.call.stop();
    expect(ending.client.stop).toHaveBeenCalledTimes(1);

    const ended = await startedCall();
    ended.fire('call-end', {});
    await ended.call.stop();
    expect(ended.client.stop).not.toHaveBeenCalled();
  });

  it('reports a dropped connection as connection-lost, without a call-end after it', async () => {
    const { fire, events } = await startedCall();
    events.length = 0;
    const lost = Object.assign(new Error('The connection to the call was lost.'), {
      name: 'ConnectionLostError',
    });
    fire('error', lost);
    fire('call-end');
    expect(events).toEqual([{ type: 'connection-lost' }]);
  });

  it('passes other errors on during the call, a server error once', async () => {
    const { fire, message, events } = await startedCall();
    events.length = 0;
    fire('error', new Error('Audio output failed'));
    fire('error', { error: { message: 'Bad gateway' } });
    // The server's error message comes both as a message and as an error event.
    message({ type: 'error', error: 'This message is not understood.' });
    fire('error', new Error('This message is not understood.'));
    expect(events.map((event) => (event.type === 'error' ? event.error.message : event))).toEqual([
      'Audio output failed',
      'Bad gateway',
      'This message is not understood.',
    ]);
  });

  it('mutes through the client, and hangs up once', async () => {
    const { client, call, fire, events } = await startedCall();
    call.setMuted(true);
    expect(client.setMuted).toHaveBeenCalledWith(true);
    expect(call.isMuted()).toBe(true);
    call.setMuted(false);
    expect(call.isMuted()).toBe(false);

    events.length = 0;
    await call.stop();
    await call.stop();
    expect(client.stop).toHaveBeenCalledTimes(1);
    fire('call-end');
    fire('volume-level', 0.3);
    expect(events).toEqual([]);
    call.setMuted(true);
    expect(client.setMuted).toHaveBeenCalledTimes(2);
  });
});
