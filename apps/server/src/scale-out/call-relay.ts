import type { FastifyInstance, FastifyRequest } from 'fastify';
import WebSocket, { type RawData } from 'ws';
import { ADDRESS_PLACE_LEASE_MS, type AddressPlaces } from './address-places.js';
import type { CallDispatch } from './call-dispatch.js';

/** Close codes the browser may be sent (1005, 1006 and 1015 are only ever observed). */
const UNSENDABLE = new Set([1005, 1006, 1015]);
const WORKER_GONE = 4503;
/** Caller audio and messages held while the worker's socket opens. */
const MAX_PENDING_MESSAGES = 500;

export interface CallRelayOptions {
  dispatch: CallDispatch;
  /** The per-address cap in Redis: a relayed call keeps its place while its socket is open. */
  addressPlaces?: AddressPlaces | undefined;
  /** Told of each relay that failed (the worker could not be reached, or went away). */
  onError?: (kind: 'connect' | 'lost') => void;
}

/**
 * ROLE=api: the browser's call socket, relayed to the voice worker the call was dispatched
 * to. Frames and messages pass through untouched both ways; the worker checks the link's
 * token and runs the call. The browser keeps one address, whichever API process it reaches.
 */
export function registerCallRelay(app: FastifyInstance, options: CallRelayOptions): void {
  app.get('/ws/call/:id', { websocket: true }, (socket: WebSocket, request: FastifyRequest) => {
    void relay(socket, request, options).catch((error: unknown) => {
      request.log.error({ err: error }, 'call relay failed');
      closeWith(socket, WORKER_GONE, 'The call could not start because of a server error.');
    });
  });
}

async function relay(
  socket: WebSocket,
  request: FastifyRequest,
  options: CallRelayOptions,
): Promise<void> {
  const { id } = request.params as { id: string };
  const log = request.log.child({ callId: id });
  // Caller frames may arrive before the worker answers: keep them, in order.
  const pending: [RawData, boolean][] = [];
  let upstream: WebSocket | null = null;
  socket.on('message', (data, isBinary) => {
    if (upstream?.readyState === WebSocket.OPEN) upstream.send(data, { binary: isBinary });
    else if (pending.length < MAX_PENDING_MESSAGES) pending.push([data, isBinary]);
  });

  const worker = await options.dispatch.workerOf(id);
  if (worker === undefined) {
    log.info('call relay refused: no live worker holds this call');
    return closeWith(
      socket,
      4410,
      'This call link has expired, or the service that held it stopped. Start the call again.',
    );
  }
  if (socket.readyState !== WebSocket.OPEN) return;
  const search = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
  const target = `${worker.url.replace(/^http/, 'ws')}/ws/call/${encodeURIComponent(id)}${search}`;
  const to = new WebSocket(target, {
    // The worker builds links (a recording's) from the address the browser used.
    headers: { host: request.headers.host ?? '', 'x-forwarded-for': request.ip },
    handshakeTimeout: 5_000,
  });
  upstream = to;
  let opened = false;
  const place = options.addressPlaces;
  let renewal: ReturnType<typeof setInterval> | undefined;
  const keepPlace = () =>
    place?.hold(id).catch((error: unknown) => {
      log.warn({ err: error }, 'call relay: could not renew the call’s place (Redis)');
    });
  const givePlaceBack = () => {
    if (place === undefined) return;
    clearInterval(renewal);
    renewal = undefined;
    place.release(id).catch((error: unknown) => {
      log.warn({ err: error }, 'call relay: could not give the call’s place back (Redis)');
    });
  };
  to.on('open', () => {
    opened = true;
    for (const [data, isBinary] of pending.splice(0)) to.send(data, { binary: isBinary });
    if (place !== undefined) {
      void keepPlace();
      renewal = setInterval(() => void keepPlace(), ADDRESS_PLACE_LEASE_MS / 3);
      renewal.unref();
    }
  });
  to.on('message', (data, isBinary) => {
    if (socket.readyState === WebSocket.OPEN) socket.send(data, { binary: isBinary });
  });
  to.on('error', (error) => {
    log.warn({ err: error, worker: worker.id, opened }, 'call relay: worker socket error');
  });
  to.on('close', (code, reason) => {
    givePlaceBack();
    if (UNSENDABLE.has(code)) {
      options.onError?.(opened ? 'lost' : 'connect');
      log.error({ worker: worker.id, opened }, 'call relay: the voice worker went away');
      return closeWith(
        socket,
        WORKER_GONE,
        opened
          ? 'The service running this call stopped. Please start the call again.'
          : 'The service for this call cannot be reached. Please start the call again.',
      );
    }
    // The worker's own ending (it has told the caller why): passed on as it is.
    if (socket.readyState === WebSocket.OPEN) socket.close(code, reason);
  });
  socket.on('close', (code) => {
    if (to.readyState === WebSocket.OPEN)
      to.close(UNSENDABLE.has(code) ? 1001 : code === 1000 ? 1000 : 1001);
    else to.terminate();
  });
}

/** Tells the caller why (as the call socket does), then closes. */
function closeWith(socket: WebSocket, code: number, reason: string): void {
  if (socket.readyState !== WebSocket.OPEN) return;
  socket.send(JSON.stringify({ type: 'error', error: reason }));
  socket.close(code, reason.slice(0, 120));
}
