import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { Call, LISTENING, ServerMessage } from '@talkbooth/protocol';
import { DATABASE_UNAVAILABLE, isDatabaseUnavailable } from '../db/unavailable-errors.js';
import { SHARED_STORE_MESSAGE } from '../scale-out/messages.js';
import { publicOrigin } from '../http/public-address.js';
import { DRAINING_MESSAGE, type ServerLifecycle } from '../lifecycle.js';
import { admissionMessage } from './call-admission.js';
import { CallRunner, type CallOutput, type CallRunnerDeps } from './call-runner.js';
import { CLOSE } from './close-codes.js';

export interface CallSocketDeps extends CallRunnerDeps {
  lifecycle: ServerLifecycle;
  /** PUBLIC_URL, for the recording link. */
  publicUrl: string | undefined;
}

/** The socket's message size limit (ws closes the socket with 1009 beyond it). */
export const MAX_SOCKET_MESSAGE_BYTES = 64 * 1024;

/**
 * The web-call socket at `/ws/call/:id?token=…`: checks the single-use token, takes the
 * call's place, marks it started under this process's lease, and hands its frames and
 * messages to a {@link CallRunner}, which runs the call and writes its record.
 */
export function registerCallSocket(app: FastifyInstance, deps: CallSocketDeps): void {
  app.get('/ws/call/:id', { websocket: true }, (socket: WebSocket, request: FastifyRequest) => {
    void acceptCall(socket, request, deps).catch((error: unknown) => {
      if (isDatabaseUnavailable(error)) {
        request.log.warn({ err: error }, 'call refused: the database does not answer');
        return refuse(socket, CLOSE.unavailable, DATABASE_UNAVAILABLE);
      }
      request.log.error({ err: error }, 'call socket failed');
      refuse(socket, CLOSE.failed, 'The call could not start because of a server error.');
    });
  });
}

/** Holds a place for the call, or refuses the socket; true when the call may go on. */
function takePlace(socket: WebSocket, id: string, deps: CallSocketDeps): boolean {
  // The place was taken when the call was created; a call created by another process
  // (or whose hold ran out at the link's last moment) takes one now.
  if (deps.admission.connected(id)) return true;
  const refusal = deps.admission.admit(id, null, null);
  if (refusal === null) return true;
  refuse(socket, CLOSE.busy, admissionMessage(refusal));
  return false;
}

async function acceptCall(
  socket: WebSocket,
  request: FastifyRequest,
  deps: CallSocketDeps,
): Promise<void> {
  const { id } = request.params as { id: string };
  const { token } = request.query as { token?: string };
  const log = request.log.child({ callId: id });
  if (deps.lifecycle.draining) return refuse(socket, CLOSE.unavailable, DRAINING_MESSAGE);

  const redeemed =
    token === undefined
      ? { problem: 'unknown' as const }
      : await deps.calls.redeemJoinToken(token, deps.now());
  if ('problem' in redeemed || redeemed.callId !== id) {
    const problem = 'problem' in redeemed ? redeemed.problem : 'unknown';
    log.info({ problem }, 'call socket refused');
    if (problem === 'used') {
      return refuse(
        socket,
        CLOSE.alreadyUsed,
        'This call link was already used: the call is connected elsewhere, or over.',
      );
    }
    if (problem === 'expired') {
      return refuse(
        socket,
        CLOSE.expired,
        'This call link has expired (links work for 60 seconds). Start the call again.',
      );
    }
    return refuse(socket, CLOSE.invalidToken, 'This call link is not valid.');
  }
  const call = await deps.calls.getById(id);
  if (call === undefined || call.status !== 'queued') {
    return refuse(socket, CLOSE.alreadyUsed, 'This call has already started or ended.');
  }
  if (!takePlace(socket, id, deps)) return;
  if (deps.presence !== undefined) {
    try {
      await deps.presence.hold(id);
    } catch (error) {
      log.error({ err: error }, 'call refused: the worker registry (Redis) does not answer');
      deps.admission.release(id);
      return refuse(socket, CLOSE.unavailable, SHARED_STORE_MESSAGE);
    }
  }
  // Started under this process's lease; conditional, so a call the sweep ended is not revived.
  if (!(await deps.calls.markStarted(id, deps.leases.lease(), deps.now()))) {
    deps.admission.release(id);
    deps.presence?.release(id);
    return refuse(socket, CLOSE.alreadyUsed, 'This call has already started or ended.');
  }
  await runOverSocket(socket, request, call, deps, log);
}

/** Sends an error the client can show, then closes. */
function refuse(socket: WebSocket, code: number, message: string): void {
  if (socket.readyState !== socket.OPEN) return;
  send(socket, { type: 'error', error: message });
  socket.close(code, message.slice(0, 120));
}

function send(socket: WebSocket, message: ServerMessage | typeof LISTENING): void {
  if (socket.readyState === socket.OPEN)
    socket.send(typeof message === 'string' ? message : JSON.stringify(message));
}

/** The socket as a call's output: audio and messages while it is open, then a normal close. */
function socketOutput(socket: WebSocket): CallOutput {
  return {
    get open() {
      return socket.readyState === socket.OPEN;
    },
    audio: (chunk) => {
      if (socket.readyState === socket.OPEN) socket.send(chunk);
    },
    message: (message) => send(socket, message),
    close: (code, reason) => socket.close(code, reason),
  };
}

/** Why a socket broke, told to the runner when the client broke the protocol. */
function brokenSocketDetail(error: Error): string {
  const tooLarge =
    (error as Error & { code?: string }).code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH';
  return tooLarge
    ? `A message was larger than the socket's ${MAX_SOCKET_MESSAGE_BYTES / 1024} KiB limit; the connection was closed. Send audio as 20 ms frames (640 bytes).`
    : `The connection broke: ${error.message}`;
}

/** Connects a started call's socket to a runner, and runs it. */
async function runOverSocket(
  socket: WebSocket,
  request: FastifyRequest,
  call: Call,
  deps: CallSocketDeps,
  log: FastifyBaseLogger,
): Promise<void> {
  const recordingUrl = `${publicOrigin(request, deps.publicUrl)}/platform/call/${call.id}/recording`;
  const runner = new CallRunner(call, socketOutput(socket), deps, log, recordingUrl);
  socket.on('close', () => runner.hangUp());
  socket.on('error', (error) => {
    log.warn({ err: error }, 'call socket error');
    runner.protocolBroken(brokenSocketDetail(error));
  });
  socket.on('message', (data, isBinary) => runner.receive(data as Buffer, isBinary));
  await runner.run();
}
