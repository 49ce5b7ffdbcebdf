import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a webhook listener received. */
export interface ReceivedWebhook {
  headers: http.IncomingHttpHeaders;
  /** The parsed JSON body (the raw text when it is not JSON). */
  body: { message: Record<string, unknown> & { type: string } };
  raw: string;
  at: number;
}

/** How the listener answers a request: an HTTP status, or `hang` (never answers). */
export type ListenerAnswer = number | 'hang';

export interface WebhookListener {
  url: string;
  port: number;
  received: ReceivedWebhook[];
  /** The messages received of `type`, in arrival order. */
  ofType(type: string): ReceivedWebhook['body']['message'][];
  /** Waits until `predicate` holds over what was received. */
  waitFor(
    predicate: (received: ReceivedWebhook[]) => boolean,
    what: string,
    timeoutMs?: number,
  ): Promise<void>;
  close(): Promise<void>;
}

/**
 * A server-message listener on this machine (node:http): records every POST and answers
 * with `answer(n)` for the n-th request (0-based; 200 unless told otherwise), after
 * `delayMs` when given. `port` reopens a listener where an earlier one was.
 */
export async function startWebhookListener(
  options: { answer?: (index: number) => ListenerAnswer; port?: number; delayMs?: number } = {},
): Promise<WebhookListener> {
  const received: ReceivedWebhook[] = [];
  const hanging: http.ServerResponse[] = [];
  const server = http.createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    request.on('end', () => {
      let body: ReceivedWebhook['body'];
      try {
        body = JSON.parse(raw) as ReceivedWebhook['body'];
      } catch {
        body = { message: { type: `unparseable: ${raw.slice(0, 100)}` } };
      }
      const index = received.length;
      received.push({ headers: request.headers, body, raw, at: Date.now() });
      const answer = options.answer?.(index) ?? 200;
      if (answer === 'hang') {
        hanging.push(response);
        return;
      }
      const reply = () =>
        response
          .writeHead(answer, { 'content-type': 'text/plain' })
          .end(answer < 300 ? 'ok' : 'no');
      if (options.delayMs === undefined) reply();
      else setTimeout(reply, options.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks/talkbooth`,
    port,
    received,
    ofType: (type) => received.map((r) => r.body.message).filter((m) => m.type === type),
    async waitFor(predicate, what, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(received)) {
        if (Date.now() > deadline) {
          const seen = received.map((r) => r.body.message.type).join(', ');
          throw new Error(`timed out waiting for ${what}; received: [${seen}]`);
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of hanging.splice(0)) response.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
