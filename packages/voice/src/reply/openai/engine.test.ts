import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AssistantDto } from '@talkbooth/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { ReplyProviderError } from '../errors.js';
import { sentencesOf } from '../sentences.js';
import type { ChatMessage, ReplyEvent } from '../types.js';
import { chatCompletionsUrl, OpenAiCompatibleReplyEngine } from './engine.js';

/**
 * A local stand-in for an OpenAI chat-completions endpoint that speaks the real streaming
 * wire format: `text/event-stream`, one `data: {chat.completion.chunk}` per token, a last
 * chunk with `finish_reason`, then `data: [DONE]`.
 */
interface Stub {
  url: string;
  requests: { method: string; path: string; headers: IncomingMessage['headers']; body: unknown }[];
  /** Resolves when the client has gone (request aborted or connection closed). */
  clientGone: Promise<void>;
}

let servers: Server[] = [];
afterEach(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  servers = [];
});

async function startStub(
  respond: (res: ServerResponse, req: IncomingMessage) => void | Promise<void>,
): Promise<Stub> {
  let gone!: () => void;
  const clientGone = new Promise<void>((resolve) => (gone = resolve));
  const requests: Stub['requests'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: text === '' ? undefined : (JSON.parse(text) as unknown),
      });
      res.on('close', () => gone());
      void respond(res, req);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, requests, clientGone };
}

const CREATED = 1_717_000_000;
/** One `chat.completion.chunk` frame as OpenAI sends it. */
function frame(delta: Record<string, unknown>, finishReason: string | null = null): string {
  const chunk = {
    id: 'chatcmpl-stub',
    object: 'chat.completion.chunk',
    created: CREATED,
    model: 'gpt-4o-mini-2024-07-18',
    system_fingerprint: 'fp_stub',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}
const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const assistant = (url?: string): AssistantDto => ({
  firstMessage: 'Hello {{name}}, how can I help?',
  endCallMessage: 'Goodbye from the clinic.',
  endCallPhrases: ['goodbye'],
  model: {
    provider: url === undefined ? 'openai' : 'custom-llm',
    model: 'gpt-4o-mini',
    url,
    temperature: 0.3,
    maxTokens: 120,
    messages: [{ role: 'system', content: 'You are the front desk for {{clinic}}.' }],
  },
});
const history: ChatMessage[] = [
  { role: 'assistant', content: 'Hello, how can I help?' },
  { role: 'user', content: 'where is the pharmacy' },
];
const engineFor = (stub: Stub, options: { apiKey?: string; firstTokenTimeoutMs?: number } = {}) =>
  new OpenAiCompatibleReplyEngine({
    assistant: assistant(stub.url),
    provider: 'custom-llm',
    apiKey: options.apiKey ?? 'sk-test-key',
    variableValues: { clinic: 'Riverside Clinic' },
    firstTokenTimeoutMs: options.firstTokenTimeoutMs,
  });

async function collect(events: AsyncIterable<ReplyEvent>): Promise<ReplyEvent[]> {
  const out: ReplyEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}
async function failure(events: AsyncIterable<ReplyEvent>): Promise<ReplyProviderError> {
  try {
    await collect(events);
  } catch (error) {
    if (error instanceof ReplyProviderError) return error;
    throw error;
  }
  throw new Error('expected a ReplyProviderError');
}

describe('OpenAiCompatibleReplyEngine against a local stub of the OpenAI chat-completions streaming protocol', () => {
  it('posts the prompt and history and streams the tokens back', async () => {
    const tokens = ['The pharmacy', ' is on the ground floor', ', to the left of reception.'];
    const stub = await startStub((res) => {
      res.writeHead(200, SSE_HEADERS);
      res.write(frame({ role: 'assistant', content: '', refusal: null }));
      for (const t of tokens) res.write(frame({ content: t }));
      res.write(frame({}, 'stop'));
      res.end('data: [DONE]\n\n');
    });
    const engine = engineFor(stub);
    const events = await collect(engine.reply(history, new AbortController().signal));
    expect(events).toEqual(tokens.map((text) => ({ type: 'text', text })));
    expect(stub.requests).toHaveLength(1);
    const request = stub.requests[0];
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.headers['authorization']).toBe('Bearer sk-test-key');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.body).toEqual({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'You are the front desk for Riverside Clinic.' },
        { role: 'assistant', content: 'Hello, how can I help?' },
        { role: 'user', content: 'where is the pharmacy' },
      ],
      stream: true,
      temperature: 0.3,
      max_tokens: 120,
    });
    expect(engine.provider).toBe('custom-llm');
    expect(engine.greeting()).toBe('Hello, how can I help?');
  });

  it('lets the first sentence be spoken before the last token is sent', async () => {
    const log: string[] = [];
    let release!: () => void;
    const firstSentenceHeard = new Promise<void>((resolve) => (release = resolve));
    const stub = await startStub(async (res) => {
      res.writeHead(200, SSE_HEADERS);
      for (const t of ['Yes, there is', ' free parking.', ' It is behind', ' the building']) {
        res.write(frame({ content: t }));
        await sleep(20);
      }
      // Hold the last token until the client has its first sentence (or give up after 2 s).
      await Promise.race([firstSentenceHeard, sleep(2000)]);
      log.push('stub: last token sent');
      res.write(frame({ content: '.' }));
      res.write(frame({}, 'stop'));
      res.end('data: [DONE]\n\n');
    });
    const engine = engineFor(stub);
    async function* texts() {
      for await (const e of engine.reply(history, new AbortController().signal)) {
        if (e.type === 'text') yield e.text;
      }
    }
    const sentences: string[] = [];
    for await (const sentence of sentencesOf(texts())) {
      log.push(`client: ${sentence}`);
      sentences.push(sentence);
      release();
    }
    expect(sentences).toEqual(['Yes, there is free parking.', 'It is behind the building.']);
    expect(log).toEqual([
      'client: Yes, there is free parking.',
      'stub: last token sent',
      'client: It is behind the building.',
    ]);
  });

  it('reads frames split anywhere, with CRLF line ends, keep-alive comments and UTF-8', async () => {
    const body =
      ': keep-alive\r\n\r\n' +
      (
        frame({ content: 'Café ' }) +
        frame({ content: 'au lait — ' }) +
        frame({ content: 'yes.' })
      ).replace(/\n/g, '\r\n') +
      frame({}, 'stop') +
      'data: [DONE]\n\n';
    const bytes = Buffer.from(body, 'utf8');
    const stub = await startStub(async (res) => {
      res.writeHead(200, SSE_HEADERS);
      for (let i = 0; i < bytes.length; i += 7) {
        res.write(bytes.subarray(i, i + 7));
        if (i % 70 === 0) await sleep(1);
      }
      res.end();
    });
    const events = await collect(engineFor(stub).reply(history, new AbortController().signal));
    expect(events.map((e) => (e.type === 'text' ? e.text : '')).join('')).toBe(
      'Café au lait — yes.',
    );
  });

  it('stops and cancels the request when the signal aborts', async () => {
    const stub = await startStub(async (res) => {
      res.writeHead(200, SSE_HEADERS);
      for (let i = 0; i < 200 && !res.destroyed; i++) {
        res.write(frame({ content: `word${i} ` }));
        await sleep(10);
      }
      res.end();
    });
    const controller = new AbortController();
    const got: ReplyEvent[] = [];
    for await (const e of engineFor(stub).reply(history, controller.signal)) {
      got.push(e);
      if (got.length === 2) controller.abort();
    }
    expect(got).toHaveLength(2);
    await stub.clientGone;

    // Aborted before it starts: no request at all.
    const before = stub.requests.length;
    const aborted = new AbortController();
    aborted.abort();
    expect(await collect(engineFor(stub).reply(history, aborted.signal))).toEqual([]);
    expect(stub.requests).toHaveLength(before);
  });

  it('cancels the request when the consumer stops reading', async () => {
    const stub = await startStub(async (res) => {
      res.writeHead(200, SSE_HEADERS);
      for (let i = 0; i < 200 && !res.destroyed; i++) {
        res.write(frame({ content: `word${i} ` }));
        await sleep(10);
      }
      res.end();
    });
    for await (const _event of engineFor(stub).reply(history, new AbortController().signal)) break;
    await stub.clientGone;
  });

  it('throws an auth error on HTTP 401, with the provider message and without the key', async () => {
    const stub = await startStub((res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: {
            message: 'Incorrect API key provided: sk-test-***-key.',
            type: 'invalid_request_error',
            param: null,
            code: 'invalid_api_key',
          },
        }),
      );
    });
    const error = await failure(engineFor(stub).reply(history, new AbortController().signal));
    expect(error).toMatchObject({
      name: 'ReplyProviderError',
      kind: 'auth',
      status: 401,
      provider: 'custom-llm',
    });
    expect(error.message).toBe(
      'custom-llm refused the API key (HTTP 401): Incorrect API key provided: sk-test-***-key.',
    );
  });

  it('throws an http error on other statuses', async () => {
    const stub = await startStub((res) => {
      res.writeHead(503, { 'content-type': 'text/plain' });
      res.end('upstream overloaded');
    });
    const error = await failure(engineFor(stub).reply(history, new AbortController().signal));
    expect(error).toMatchObject({ kind: 'http', status: 503 });
    expect(error.message).toBe('custom-llm answered HTTP 503: upstream overloaded');
  });

  it('throws a malformed-stream error on frames that are not JSON', async () => {
    const stub = await startStub((res) => {
      res.writeHead(200, SSE_HEADERS);
      res.write(frame({ content: 'Hello' }));
      res.end('data: {"choices": [oops\n\n');
    });
    const events: ReplyEvent[] = [];
    let caught: unknown;
    try {
      for await (const e of engineFor(stub).reply(history, new AbortController().signal))
        events.push(e);
    } catch (error) {
      caught = error;
    }
    expect(events).toEqual([{ type: 'text', text: 'Hello' }]);
    expect(caught).toBeInstanceOf(ReplyProviderError);
    expect(caught).toMatchObject({ kind: 'malformed' });
    expect((caught as Error).message).toMatch(/not JSON: \{"choices": \[oops/);
  });

  it('throws a malformed-stream error on a page that is not a stream, or a stream cut short', async () => {
    const page = await startStub((res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body>Welcome to nginx!</body></html>');
    });
    const error = await failure(engineFor(page).reply(history, new AbortController().signal));
    expect(error).toMatchObject({ kind: 'malformed' });
    expect(error.message).toBe('custom-llm did not answer with a chat-completions stream.');

    const cut = await startStub((res) => {
      res.writeHead(200, SSE_HEADERS);
      res.end(frame({ content: 'The pharmacy is' }));
    });
    const cutError = await failure(engineFor(cut).reply(history, new AbortController().signal));
    expect(cutError.message).toBe('The custom-llm stream stopped before the end of the reply.');
  });

  it('throws a provider error on an error inside the stream', async () => {
    const stub = await startStub((res) => {
      res.writeHead(200, SSE_HEADERS);
      res.end(
        `data: ${JSON.stringify({ error: { message: 'The server is overloaded.', type: 'server_error' } })}\n\n`,
      );
    });
    const error = await failure(engineFor(stub).reply(history, new AbortController().signal));
    expect(error).toMatchObject({ kind: 'provider' });
    expect(error.message).toBe('custom-llm reported an error: The server is overloaded.');
  });

  it('times out when no first token comes, even with keep-alives, and cancels the request', async () => {
    const stub = await startStub(async (res) => {
      res.writeHead(200, SSE_HEADERS);
      for (let i = 0; i < 100 && !res.destroyed; i++) {
        res.write(': keep-alive\n\n');
        await sleep(20);
      }
      res.end();
    });
    const error = await failure(
      engineFor(stub, { firstTokenTimeoutMs: 150 }).reply(history, new AbortController().signal),
    );
    expect(error).toMatchObject({ kind: 'timeout' });
    expect(error.message).toBe('custom-llm sent no reply within 150 ms.');
    await stub.clientGone;
  });

  it('times out when the headers never come', async () => {
    const stub = await startStub(() => {
      // Never answers.
    });
    const error = await failure(
      engineFor(stub, { firstTokenTimeoutMs: 100 }).reply(history, new AbortController().signal),
    );
    expect(error).toMatchObject({ kind: 'timeout' });
  });

  it('throws a network error when the endpoint is unreachable', async () => {
    const stub = await startStub(() => undefined);
    const server = servers.pop();
    await new Promise((resolve) => server?.close(resolve));
    const error = await failure(engineFor(stub).reply(history, new AbortController().signal));
    expect(error).toMatchObject({ kind: 'network' });
    expect(error.message).toMatch(/^Could not reach custom-llm at 127\.0\.0\.1:\d+: /);
  });

  it('takes a whole JSON completion from a server that does not stream', async () => {
    const stub = await startStub((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'chatcmpl-stub',
          object: 'chat.completion',
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: 'Ground floor.' },
              finish_reason: 'stop',
            },
          ],
        }),
      );
    });
    expect(await collect(engineFor(stub).reply(history, new AbortController().signal))).toEqual([
      { type: 'text', text: 'Ground floor.' },
    ]);
  });

  it('ends the call on an end-call phrase without asking the model', async () => {
    const stub = await startStub((res) => {
      res.end();
    });
    const events = await collect(
      engineFor(stub).reply(
        [{ role: 'user', content: 'ok goodbye' }],
        new AbortController().signal,
      ),
    );
    expect(events).toEqual([
      { type: 'text', text: 'Goodbye from the clinic.' },
      { type: 'end-call' },
    ]);
    expect(stub.requests).toHaveLength(0);
  });

  it('sends no authorization header without a key, and sums up the call', async () => {
    const stub = await startStub((res) => {
      res.writeHead(200, SSE_HEADERS);
      res.end(frame({ content: 'Hi.' }) + frame({}, 'stop') + 'data: [DONE]\n\n');
    });
    const engine = new OpenAiCompatibleReplyEngine({
      assistant: assistant(stub.url),
      provider: 'custom-llm',
    });
    await collect(engine.reply(history, new AbortController().signal));
    expect(stub.requests[0]?.headers['authorization']).toBeUndefined();
    expect(engine.conclude([...history, { role: 'assistant', content: 'Ground floor.' }])).toEqual({
      summary: 'The caller spoke 1 time, starting with: where is the pharmacy.',
      structuredData: { callerTurns: 1, assistantTurns: 2 },
    });
    expect(engine.conclude([]).summary).toBe('The caller did not say anything.');
  });

  it('builds the endpoint URL', () => {
    expect(chatCompletionsUrl('https://api.openai.com/v1')).toBe(
      'https://api.openai.com/v1/chat/completions',
    );
    expect(chatCompletionsUrl('http://llm.local/v1/')).toBe('http://llm.local/v1/chat/completions');
    expect(chatCompletionsUrl('http://llm.local/v1/chat/completions')).toBe(
      'http://llm.local/v1/chat/completions',
    );
    const openai = new OpenAiCompatibleReplyEngine({
      assistant: assistant(),
      provider: 'openai',
      apiKey: 'k',
    });
    expect(openai.provider).toBe('openai');
    expect(
      () => new OpenAiCompatibleReplyEngine({ assistant: assistant(), provider: 'custom-llm' }),
    ).toThrow(/needs a base URL/);
  });
});
