import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the stub saw it. */
export interface RecordedRequest {
  method: string;
  /** The raw path, still URL-encoded, without the query. */
  path: string;
  /** The raw query string, without `?` ('' when none). */
  search: string;
  /** The query, decoded; repeated keys keep every value. */
  query: Record<string, string[]>;
  headers: IncomingHttpHeaders;
  /** The raw body ('' when none). */
  body: string;
  /** True when the client went away before the stub answered. */
  abandoned: boolean;
}

/** What to answer: a status and a body (objects are sent as JSON), or nothing at all. */
export type CannedAnswer =
  { status?: number; statusText?: string; body?: unknown; contentType?: string } | 'hang';

export interface StubServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  requests: RecordedRequest[];
  /** Sets how the following requests are answered. */
  answerWith(answer: CannedAnswer | ((request: RecordedRequest) => CannedAnswer)): void;
  /** Resolves once `count` requests have been abandoned by the client. */
  abandoned(count?: number): Promise<void>;
  close(): Promise<void>;
}

/** A real HTTP server on a free port that records every request and answers canned replies. */
export async function startStubServer(): Promise<StubServer> {
  const requests: RecordedRequest[] = [];
  let answer: CannedAnswer | ((request: RecordedRequest) => CannedAnswer) = { body: {} };
  let abandonedWaiters: { count: number; resolve: () => void }[] = [];
  const checkAbandoned = () => {
    const count = requests.filter((request) => request.abandoned).length;
    abandonedWaiters = abandonedWaiters.filter((waiter) => {
      if (count < waiter.count) return true;
      waiter.resolve();
      return false;
    });
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawUrl = req.url ?? '/';
      const mark = rawUrl.indexOf('?');
      const search = mark === -1 ? '' : rawUrl.slice(mark + 1);
      const query: Record<string, string[]> = {};
      for (const [key, value] of new URLSearchParams(search)) {
        (query[key] ??= []).push(value);
      }
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        path: mark === -1 ? rawUrl : rawUrl.slice(0, mark),
        search,
        query,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        abandoned: false,
      };
      requests.push(recorded);
      res.on('close', () => {
        if (!res.writableFinished) {
          recorded.abandoned = true;
          checkAbandoned();
        }
      });
      const canned = typeof answer === 'function' ? answer(recorded) : answer;
      if (canned !== 'hang') send(res, canned);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    answerWith(next) {
      answer = next;
    },
    abandoned(count = 1) {
      return new Promise((resolve) => {
        abandonedWaiters.push({ count, resolve });
        checkAbandoned();
      });
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}

function send(res: ServerResponse, canned: Exclude<CannedAnswer, 'hang'>): void {
  const status = canned.status ?? 200;
  const isText = typeof canned.body === 'string';
  const payload = isText ? (canned.body as string) : JSON.stringify(canned.body ?? null);
  const contentType =
    canned.contentType ??
    (isText ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8');
  res.statusCode = status;
  if (canned.statusText !== undefined) res.statusMessage = canned.statusText;
  res.setHeader('Content-Type', contentType);
  res.end(payload);
}
