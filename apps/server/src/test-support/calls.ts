import type { Call, CreateWebCall } from '@talkbooth/protocol';
import { CallClient, type CallClientOptions } from './call-client.js';
import type { PlatformClient } from '@talkbooth/platform-client';
import type { TestServer } from './test-server.js';

/** Any server whose platform API a test reads: a test server, or a server process. */
export interface PlatformServer {
  client(token?: string): PlatformClient;
}

/** The booth's call settings: a hosted transcriber (which falls back here), recording off, a name. */
export const BOOTH_OVERRIDES = {
  transcriber: { provider: 'deepgram' as const, model: 'nova-2', language: 'en-US' },
  recordingEnabled: false,
  variableValues: { name: 'Sam' },
};

export async function demoAssistantId(server: TestServer): Promise<string> {
  const [demo] = await server.client().assistant.list();
  return demo!.id;
}

/** Creates a web call through the platform API and connects a caller to its socket. */
export async function startCall(
  server: TestServer,
  body: CreateWebCall,
  options: CallClientOptions & { microphone?: boolean } = {},
): Promise<{ call: Call; client: CallClient }> {
  const call = await server.client().call.createWeb(body);
  const client = await CallClient.connect(call.webCallUrl!, options);
  await client.waitFor(
    () => client.messages.some((m) => m.message === 'listening'),
    20_000,
    'listening',
  );
  if (options.microphone !== false) client.startMicrophone();
  return { call, client };
}

/** Waits until the call record satisfies `predicate` (records are written just after the socket talks). */
export async function recordWhere(
  server: PlatformServer,
  callId: string,
  predicate: (call: Call) => boolean,
  what: string,
  timeoutMs = 10_000,
): Promise<Call> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const call = await server.client().call.get(callId);
    if (predicate(call)) return call;
    if (Date.now() > deadline)
      throw new Error(`call ${callId}: ${what} did not happen: ${JSON.stringify(call)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits until the call record says the call has ended. */
export function endedRecord(
  server: PlatformServer,
  callId: string,
  timeoutMs = 10_000,
): Promise<Call> {
  return recordWhere(server, callId, (call) => call.status === 'ended', 'the end', timeoutMs);
}

/** Waits until the assistant has stopped speaking, after message index `from`. */
export function untilAssistantStops(
  client: CallClient,
  from: number,
  timeoutMs = 30_000,
): Promise<unknown> {
  return client.waitFor(
    () =>
      client.find('speech-update', (m) => m.role === 'assistant' && m.status === 'stopped', from),
    timeoutMs,
    'the assistant to stop speaking',
  );
}
