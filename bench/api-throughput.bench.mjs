// HTTP throughput of the API a visitor and an operator hit most: the code check
// (`POST /api/get-assistant`, right and wrong codes) and the platform's assistant list
// (`GET /platform/assistant`, with the demo's one assistant and with 51). Each figure is
// measured in slices alternating with a bare Fastify hello-world's under the same autocannon
// settings, so the ratio says what Talkbooth's work per request costs on this machine now.
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { table } from './lib/markdown.mjs';
import { fromRoot } from './lib/paths.mjs';
import { quantile, ratio } from './lib/stats.mjs';
import { startTalkServer } from './lib/talk-server.mjs';

export const title = 'API throughput';
export const about =
  'Requests per second and p50/p99 latency of the real server (built, with its SQLite file) ' +
  'under autocannon: the access-code check with the demo code and with rotating wrong codes, ' +
  'and the platform assistant list with the demo’s one assistant and with 51. Each row is ' +
  'measured against a bare Fastify hello-world (`{"hello":"world"}`; for the POST rows one ' +
  'that parses the same JSON body) under the same settings, 10 connections, after a warm-up ' +
  'of both: five 2 s slices of each, alternating (one 1 s slice in quick mode), so a change in ' +
  'the shared machine’s load touches both alike. Requests per second are over all slices; ' +
  'p50/p99 are the median of the slices’ figures. The ratio is Talkbooth ÷ hello-world: 0.25 ' +
  'means a quarter of the bare framework’s requests per second, the rest being the real ' +
  'work (validation, the keyed hash, SQLite, serialising). autocannon runs in a worker thread ' +
  'of the same process and shares the 2 cores with the server, so absolute numbers are low ' +
  'and move with the machine’s load; the ratio is the figure to compare. Latency is counted ' +
  'in whole milliseconds (0 means under 1 ms). The list answers an assistant whose stored row ' +
  'has not changed since an earlier list with the JSON it was answered with then (checked ' +
  'against the schema when first made; apps/server/src/platform/answer-memo.ts): after the ' +
  'one-time check the rows measure that steady state, and a list after changes pays the ' +
  'presenting and the schema check once for each changed assistant. The client is ' +
  'exempt from rate limits by configuration (`RATE_LIMIT_EXEMPT_IPS=127.0.0.1`); any 429 ' +
  'fails the benchmark.';

const CONNECTIONS = 10;
const ASSISTANTS_TO_ADD = 50;
/** Rotates a new wrong code into every request (a file: autocannon's worker require()s it). */
const WRONG_CODES = fromRoot('bench/lib/api-throughput-wrong-codes.cjs');
const JSON_HEADERS = { 'content-type': 'application/json' };

/** A bare Fastify app: the cheapest answer the framework can give, GET and POST. */
async function startHelloWorld() {
  const app = Fastify({ logger: false });
  app.get('/hello', async () => ({ hello: 'world' }));
  // Fastify parses the JSON body before the handler runs, as it does for the code check.
  app.post('/hello', async () => ({ hello: 'world' }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, baseUrl: `http://127.0.0.1:${app.server.address().port}` };
}

/** The targets, each an autocannon request and the check its single answer must pass. */
function targets(server, listSize) {
  const codeCheck = { method: 'POST', path: '/api/get-assistant', headers: JSON_HEADERS };
  const list = {
    method: 'GET',
    path: '/platform/assistant',
    headers: { authorization: `Bearer ${server.privateKey}` },
  };
  return {
    demoCode: {
      label: 'POST /api/get-assistant, demo code',
      request: { ...codeCheck, body: JSON.stringify({ unicode: server.demoCode }) },
      expect: (body) => body?.assistantId === server.assistantId,
    },
    wrongCodes: {
      label: 'POST /api/get-assistant, wrong codes',
      request: { ...codeCheck, setupRequest: WRONG_CODES },
      expect: (body) => Array.isArray(body) && body.length === 0,
    },
    list: {
      label: `GET /platform/assistant, ${listSize} assistant${listSize === 1 ? '' : 's'}`,
      request: list,
      expect: (body) => Array.isArray(body) && body.length === listSize,
    },
  };
}

/**
 * Sends the target's request once with fetch: a wrong answer (or a 429) is a broken
 * benchmark, not a slow one. Answers the response body's size in bytes.
 */
async function checkOnce(baseUrl, { label, request, expect }) {
  const body =
    request.setupRequest === undefined ? request.body : JSON.stringify({ unicode: 'not-a-code' });
  const response = await fetch(`${baseUrl}${request.path}`, {
    method: request.method,
    headers: request.headers,
    body,
  });
  const text = await response.text();
  if (response.status !== 200 || !expect(JSON.parse(text))) {
    throw new Error(`${label}: unexpected answer ${response.status} ${text.slice(0, 200)}`);
  }
  return Buffer.byteLength(text);
}

/** The same request, aimed at the hello-world: only the path changes. */
const helloRequest = (request) => ({ ...request, path: '/hello' });

/** One autocannon run of `seconds`. */
function cannon(baseUrl, request, seconds) {
  return autocannon({
    url: baseUrl,
    connections: CONNECTIONS,
    duration: seconds,
    // The load generator gets a thread of its own, so it does not queue behind the server's
    // event loop (they would otherwise take turns on one core).
    workers: 1,
    requests: [request],
  });
}

/** One run's figures; throws if rate limiting answered anything. */
async function load(label, baseUrl, request, seconds) {
  const result = await cannon(baseUrl, request, seconds);
  const tooMany = result.statusCodeStats?.['429']?.count ?? 0;
  if (tooMany > 0) {
    throw new Error(`${label}: ${tooMany} answers were 429: the client was rate limited`);
  }
  return {
    seconds: result.duration,
    requests: result.requests.total,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    // autocannon's errors include its timeouts.
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCodes: Object.fromEntries(
      Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, count]),
    ),
  };
}

/** The slices of one side as one figure: rates over all of them, medians of latencies. */
function combine(slices) {
  const sum = (field) => slices.reduce((total, slice) => total + slice[field], 0);
  const median = (field) =>
    quantile(
      slices.map((slice) => slice[field]),
      0.5,
    );
  return {
    requestsPerSecond: Math.round(sum('requests') / sum('seconds')),
    p50Ms: median('p50Ms'),
    p99Ms: median('p99Ms'),
    requests: sum('requests'),
    errors: sum('errors'),
    timeouts: sum('timeouts'),
    non2xx: sum('non2xx'),
    slices,
  };
}

/**
 * Warms both servers up, then measures the reference and Talkbooth in alternating slices
 * (the order flipped each time), so neither side gets the quieter moments of the machine.
 */
async function measurePair(talk, hello, target, { slices, sliceSeconds, warmUpSeconds, log }) {
  const responseBytes = await checkOnce(talk.baseUrl, target);
  const sides = {
    reference: (seconds) =>
      load('hello-world', hello.baseUrl, helloRequest(target.request), seconds),
    talkbooth: (seconds) => load(target.label, talk.baseUrl, target.request, seconds),
  };
  await sides.reference(warmUpSeconds);
  await sides.talkbooth(warmUpSeconds);
  const measured = { reference: [], talkbooth: [] };
  for (let i = 0; i < slices; i += 1) {
    const order = i % 2 === 0 ? ['reference', 'talkbooth'] : ['talkbooth', 'reference'];
    for (const side of order) measured[side].push(await sides[side](sliceSeconds));
  }
  const reference = combine(measured.reference);
  const talkbooth = combine(measured.talkbooth);
  log(
    `${target.label}: ${talkbooth.requestsPerSecond} req/s ` +
      `(hello-world ${reference.requestsPerSecond} req/s), ${responseBytes} B answer`,
  );
  return {
    target: target.label,
    responseBytes,
    talkbooth,
    reference,
    // Three digits: the long list is under a hundredth of the hello-world.
    ratio: ratio(talkbooth.requestsPerSecond, reference.requestsPerSecond, 3),
  };
}

/**
 * Adds copies of the demo assistant (its prompt, messages and settings) so the list is as
 * long as a real organisation's.
 */
async function addAssistants(server, count) {
  const {
    id: _id,
    orgId: _org,
    createdAt: _c,
    updatedAt: _u,
    ...demo
  } = await server.platform('GET', `/assistant/${server.assistantId}`);
  for (let i = 1; i <= count; i += 1) {
    await server.platform('POST', '/assistant', { ...demo, name: `${demo.name} ${i}` });
  }
}

function markdownOf(rows) {
  return table(
    [
      'Request',
      'Answer (B)',
      'Talkbooth req/s',
      'p50 (ms)',
      'p99 (ms)',
      'Hello-world req/s',
      'p50 (ms)',
      'p99 (ms)',
      'Ratio',
      'Errors / non-2xx',
    ],
    rows.map((row) => [
      row.target,
      row.responseBytes,
      row.talkbooth.requestsPerSecond,
      row.talkbooth.p50Ms,
      row.talkbooth.p99Ms,
      row.reference.requestsPerSecond,
      row.reference.p50Ms,
      row.reference.p99Ms,
      row.ratio,
      `${row.talkbooth.errors} / ${row.talkbooth.non2xx}`,
    ]),
  );
}

export async function run({ quick, log }) {
  const settings = quick
    ? { slices: 1, sliceSeconds: 1, warmUpSeconds: 1, log }
    : { slices: 5, sliceSeconds: 2, warmUpSeconds: 2, log };
  const talk = await startTalkServer({ RATE_LIMIT_EXEMPT_IPS: '127.0.0.1' });
  let hello = null;
  try {
    hello = await startHelloWorld();
    const one = targets(talk, 1);
    const rows = [];
    for (const target of [one.demoCode, one.wrongCodes, one.list]) {
      rows.push(await measurePair(talk, hello, target, settings));
    }
    await addAssistants(talk, ASSISTANTS_TO_ADD);
    rows.push(await measurePair(talk, hello, targets(talk, ASSISTANTS_TO_ADD + 1).list, settings));

    const summary = Object.fromEntries(
      rows.map((row) => [
        row.target,
        {
          requestsPerSecond: row.talkbooth.requestsPerSecond,
          p50Ms: row.talkbooth.p50Ms,
          p99Ms: row.talkbooth.p99Ms,
          helloWorldRequestsPerSecond: row.reference.requestsPerSecond,
          ratio: row.ratio,
          responseBytes: row.responseBytes,
          errors: row.talkbooth.errors,
          non2xx: row.talkbooth.non2xx,
        },
      ]),
    );
    return {
      summary,
      markdown: markdownOf(rows),
      details: {
        connections: CONNECTIONS,
        sliceSeconds: settings.sliceSeconds,
        slices: settings.slices,
        warmUpSeconds: settings.warmUpSeconds,
        rows,
      },
    };
  } finally {
    try {
      await hello?.app.close();
    } finally {
      await talk.close();
    }
  }
}
