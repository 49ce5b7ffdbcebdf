import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ServerMessage } from '@talkbooth/protocol';
import { ConnectionLostError, WebCallError } from './errors.js';
import WebCallClientDefault, { WebCallClient, type CallEndInfo } from './index.js';
import {
  FakePeerConnection,
  FakeStream,
  FakeTrack,
  fakeBrowser,
  fakeFetch,
  flush,
} from './test-support/fakes.js';
import type { Transport, TransportContext } from './transports/transport.js';

type Browser = ReturnType<typeof fakeBrowser>;

/** Every event the client emits, in order. */
function record(client: WebCallClient) {
  const events: { name: string; value?: unknown }[] = [];
  client.on('call-start', () => events.push({ name: 'call-start' }));
  client.on('call-end', (info: CallEndInfo) => events.push({ name: 'call-end', value: info }));
  client.on('speech-start', () => events.push({ name: 'speech-start' }));
  client.on('speech-end', () => events.push({ name: 'speech-end' }));
  client.on('volume-level', (v: number) => events.push({ name: 'volume-level', value: v }));
  client.on('message', (m: ServerMessage) => events.push({ name: 'message', value: m }));
  client.on('error', (e: Error) => events.push({ name: 'error', value: e }));
  const named = (name: string) => events.filter((e) => e.name === name);
  return {
    events,
    named,
    names: () => events.filter((e) => e.name !== 'volume-level').map((e) => e.name),
    errors: () => named('error').map((e) => e.value as WebCallError),
  };
}

function makeClient(browser: Browser, fetch = fakeFetch(), extra = {}) {
  const client = new WebCallClient('pk_public', 'http://booth.test/platform/', {
    ...browser.options,
    fetch,
    ...extra,
  });
  return { client, fetch, log: record(client) };
}

/** Starts a call and has the fake server accept it. */
async function startCall(browser: Browser, setup = makeClient(browser)) {
  const started = setup.client.start('assistant-1');
  await vi.waitFor(() => expect(browser.sockets).toHaveLength(1));
  browser.socket.accept();
  const call = await started;
  await flush();
  return { ...setup, call };
}

describe('WebCallClient', () => {
  let warn: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is the default export too, like the hosted SDK', () => {
    expect(WebCallClientDefault).toBe(WebCallClient);
  });

  describe('start', () => {
    it('creates the web call with the public key and joins its WebSocket', async () => {
      const browser = fakeBrowser();
      const { call, fetch, client } = await startCall(browser);
      expect(call).toMatchObject({ id: 'call-1', webCallUrl: expect.stringMatching(/^ws:/) });
      expect(fetch.requests).toHaveLength(1);
      const [request] = fetch.requests;
      expect(request?.url).toBe('http://booth.test/platform/call/web');
      expect(request?.init.method).toBe('POST');
      expect(new Headers(request?.init.headers).get('authorization')).toBe('Bearer pk_public');
      expect(JSON.parse(String(request?.init.body))).toEqual({ assistantId: 'assistant-1' });
      expect(browser.socket.url).toBe('ws://booth.test/ws/call/call-1?token=secret');
      expect(browser.socket.binaryType).toBe('arraybuffer');
      expect(browser.constraints).toEqual([
        {
          audio: {
            echoCancellation: true,
            noiseSuppression: false,
            autoGainControl: true,
            channelCount: 1,
          },
        },
      ]);
      expect(client.transportKind).toBe('websocket');
      // The server suppresses noise; the browser is asked not to as well.
      expect(client.noiseCancellation).toBe('server');
      expect(client.audioOutput).toBe('direct');
    });

    it('sends an inline assistant, overrides and metadata', async () => {
      const browser = fakeBrowser();
      const setup = makeClient(browser);
      const started = setup.client.start(
        { name: 'Inline', firstMessage: 'Hi {{name}}' },
        { variableValues: { name: 'Ada' } },
        { metadata: { booth: 'b1' } },
      );
      await vi.waitFor(() => expect(browser.sockets).toHaveLength(1));
      browser.socket.accept();
      await started;
      expect(JSON.parse(String(setup.fetch.requests[0]?.init.body))).toEqual({
        assistant: { name: 'Inline', firstMessage: 'Hi {{name}}' },
        assistantOverrides: { variableValues: { name: 'Ada' } },
        metadata: { booth: 'b1' },
      });
    });

    it('does nothing on a second start while started: resolves null, one POST', async () => {
      const browser = fakeBrowser();
      const setup = makeClient(browser);
      const first = setup.client.start('assistant-1');
      const second = await setup.client.start('assistant-1');
      expect(second).toBeNull();
      await vi.waitFor(() => expect(browser.sockets).toHaveLength(1));
      browser.socket.accept();
      expect(await first).not.toBeNull();
      expect(await setup.client.start('assistant-1')).toBeNull();
      expect(setup.fetch.requests).toHaveLength(1);
      expect(browser.sockets).toHaveLength(1);
    });

    it('reports an HTTP error with its status and body, and can start again', async () => {
      const browser = fakeBrowser();
      const body = {
        statusCode: 400,
        error: 'Bad Request',
        message: 'There is no assistant with id nope in your organisation.',
      };
      const fetch = fakeFetch({ status: 400, body });
      const { client, log } = makeClient(browser, fetch);
      expect(await client.start('nope')).toBeNull();
      const [error] = log.errors();
      expect(error).toBeInstanceOf(WebCallError);
      expect(error?.kind).toBe('http');
      expect(error?.status).toBe(400);
      expect(error?.body).toEqual(body);
      expect(error?.message).toBe(
        'Could not start the call: There is no assistant with id nope in your organisation. (HTTP 400).',
      );
      expect(log.names()).toEqual(['error']); // no call-end for a call that never started
      expect(browser.sockets).toHaveLength(0);
      expect(browser.tracks).toHaveLength(0);
      expect(browser.contexts.every((c) => c.state === 'closed')).toBe(true);
      // The started flag is reset: a new start goes ahead.
      expect(await client.start('nope')).toBeNull();
      expect(fetch.requests).toHaveLength(2);
    });

    it('reports an unreachable server', async () => {
      const browser = fakeBrowser();
      const fetch = Object.assign(
        async () => {
          throw new TypeError('Failed to fetch');
        },
        { requests: [] },
      );
      const { client, log } = makeClient(browser, fetch);
      expect(await client.start('a')).toBeNull();
      expect(log.errors()[0]?.kind).toBe('network');
      expect(log.errors()[0]?.message).toContain('Failed to fetch');
    });

    it('reports a refused microphone, releases everything and resolves null', async () => {
      const denied = new DOMException('Permission denied', 'NotAllowedError');
      const browser = fakeBrowser({ micError: denied });
      const { client, log } = makeClient(browser);
      expect(await client.start('assistant-1')).toBeNull();
      const [error] = log.errors();
      expect(error?.kind).toBe('microphone-denied');
      expect(error?.message).toMatch(/^Microphone access was denied/);
      expect(error?.cause).toBe(denied);
      expect(browser.sockets).toHaveLength(0);
      expect(browser.contexts).toHaveLength(1);
      expect(browser.contexts[0]?.state).toBe('closed');
      expect(client.isMuted()).toBe(false);
      expect(() => client.setMuted(true)).toThrow('Call object is not available.');
      // Not started any more.
      const again = client.start('assistant-1');
      await expect(again).resolves.toBeNull();
    });

    it("reports a refused socket with the server's error text and releases everything", async () => {
      const browser = fakeBrowser();
      const { client, log } = makeClient(browser);
      const started = client.start('assistant-1');
      await vi.waitFor(() => expect(browser.sockets).toHaveLength(1));
      const socket = browser.socket;
      socket.serverOpen();
      const text = 'This call link has expired (links work for 60 seconds). Start the call again.';
      socket.serverSend({ type: 'error', error: text });
      socket.serverClose(4410, 'This call link has expired');
      expect(await started).toBeNull();
      const [error] = log.errors();
      expect(error?.kind).toBe('connection-refused');
      expect(error?.message).toBe(text);
      expect(error?.closeCode).toBe(4410);
      expect(browser.tracks[0]?.stopped).toBe(true);
      expect(browser.contexts[0]?.state).toBe('closed');
      expect(browser.workletNodes.every((n) => n.disconnected && n.port.closed)).toBe(true);
      expect(log.named('call-end')).toHaveLength(0);
      expect(client.transportKind).toBeNull();
    });

    it('says when the call server cannot be connected to at all', async () => {
      const browser = fakeBrowser();
      const { client, log } = makeClient(browser);
      const started = client.start('assistant-1');
      await vi.waitFor(() => expect(browser.sockets).toHaveLength(1));
      browser.socket.serverClose(1006);
      expect(await started).toBeNull();
      expect(log.errors()[0]?.message).toMatch(/^Could not connect to the call server/);
      expect(log.errors()[0]?.closeCode).toBe(1006);
    });

    it('gives up a second after a socket error that no close follows (CSP-blocked)', async () => {
      vi.useFakeTimers();
      const browser = fakeBrowser();
      const { client, log } = makeClient(browser);
      const started = client.start('assistant-1');
      await vi.waitFor(() => expect(browser.sockets).toHaveLength(1));
      browser.socket.serverError();
      await vi.advanceTimersByTimeAsync(999);
      expect(log.errors()).toHaveLength(0);
      await vi.advanceTimersByTimeAsync(1);
      expect(await started).toBeNull();
      expect(log.errors()[0]?.kind).toBe('connection-refused');
      expect(log.errors()[0]?.message).toMatch(/^Could not connect to the call server/);
      expect(browser.tracks[0]?.stopped).toBe(true);
    });

    it('reports worklets that do not load', async () => {
      const browser = fakeBrowser();
      const { client, log } = makeClient(browser);
      const started = client.start('assistant-1');
      await vi.waitFor(() => expect(browser.contexts).toHaveLength(1));
      const context = browser.contexts[0];
      if (context) context.failModules = true;
      expect(await started).toBeNull();
      expect(log.errors()[0]?.kind).toBe('audio');
      expect(browser.tracks[0]?.stopped).toBe(true);
    });

    it('loads the worklets next to the module, or from workletBaseUrl', async () => {
      const browser = fakeBrowser();
      await startCall(browser);
      expect(browser.contexts[0]?.modules).toEqual([
        expect.stringMatching(/\/worklets\/capture-worklet\.(js|ts)(\?no-inline)?$/),
        expect.stringMatching(/\/worklets\/playback-worklet\.(js|ts)(\?no-inline)?$/),
      ]);
      const other = fakeBrowser();
      await startCall(
        other,
        makeClient(other, fakeFetch(), { workletBaseUrl: 'https://cdn.test/wc/' }),
      );
      expect(other.contexts[0]?.modules).toEqual([
        'https://cdn.test/wc/capture-worklet.js',
        'https://cdn.test/wc/playback-worklet.js',
      ]);
    });

    it('stop() while starting resolves null without an error, and ends once', async () => {
      const browser = fakeBrowser();
      const { client, log } = makeClient(browser);
      const started = client.start('assistant-1');
      await vi.waitFor(() => expect(browser.sockets).toHaveLength(1));
      await client.stop();
      expect(await started).toBeNull();
      expect(log.names()).toEqual(['call-end']);
      expect(browser.socket.closedWith?.code).toBe(1000);
      expect(browser.tracks[0]?.stopped).toBe(true);
    });

    it('uses a custom transport factory', async () => {
      const connect = vi.fn(async () => undefined);
      let context: TransportContext | null = null;
      const transport: Transport = {
        kind: 'websocket',
        noiseCancellation: 'none',
        audioOutput: 'direct',
        connect,
        send: vi.fn(),
        setMuted: vi.fn(),
        isMuted: () => false,
        close: vi.fn(async () => undefined),
      };
      const client = new WebCallClient('pk', 'http://x.test', {
        fetch: fakeFetch(),
        transportFactory: (c) => {
          context = c;
          return transport;
        },
      });
      const events = record(client);
      expect(await client.start('a')).not.toBeNull();
      expect(connect).toHaveBeenCalledOnce();
      const handlers = (context as TransportContext | null)?.handlers;
      handlers?.listening();
      handlers?.closed({ endedReason: 'assistant-ended-call' });
      expect(events.names()).toEqual(['call-start', 'call-end']);
      expect(events.named('call-end')[0]?.value).toEqual({ endedReason: 'assistant-ended-call' });
    });
  });

  describe('messages', () => {
    it('emits every JSON message, call-start for listening, and drops garbage with a warning', async () => {
      const browser = fakeBrowser();
      const { log } = await startCall(browser);
      const socket = browser.socket;
      socket.serverSend({
        type: 'transcript',
        role: 'user',
        transcriptType: 'final',
        transcript: 'hi',
      });
      socket.serverSend('not json {');
      socket.serverSend('[1,2]');
      socket.serverSend({ noType: true });
      socket.serverSend({ type: 'model-output', output: 'Hello' });
      expect(log.names()).toEqual(['message', 'call-start', 'message', 'message']);
      expect(log.named('message').map((e) => (e.value as ServerMessage).type)).toEqual([
        'audio-format',
        'transcript',
        'model-output',
      ]);
      expect(warn).toHaveBeenCalledTimes(3);
      expect(String(warn.mock.calls[0]?.[0])).toContain('Dropped a server message (not JSON)');
    });

    it('passes audio-format, assistant audio and clear to the playback worklet', async () => {
      const browser = fakeBrowser();
      await startCall(browser);
      const port = browser.node('talkbooth-playback').port;
      expect(port.posted[0]?.message).toEqual({ type: 'format', sampleRate: 22_050 });
      const pcm = new Int16Array([1, -2, 3, 32_767]);
      browser.socket.serverSend(pcm.buffer.slice(0));
      const audio = port.posted[1];
      expect(audio?.message).toMatchObject({ type: 'audio' });
      const samples = (audio?.message as { samples: Int16Array }).samples;
      expect([...samples]).toEqual([1, -2, 3, 32_767]);
      expect(audio?.transfer).toEqual([samples.buffer]);
      browser.socket.serverSend({ type: 'clear' });
      expect(port.posted[2]?.message).toEqual({ type: 'clear' });
    });

    it('sends microphone frames as binary after the call is accepted, never before', async () => {
      const browser = fakeBrowser();
      const setup = makeClient(browser);
      const started = setup.client.start('assistant-1');
      await vi.waitFor(() => expect(browser.sockets).toHaveLength(1));
      const capture = browser.node('talkbooth-capture');
      browser.socket.serverOpen();
      capture.port.deliver(new Int16Array(320).fill(7));
      expect(browser.socket.sentBinary).toHaveLength(0);
      browser.socket.serverSend({
        type: 'audio-format',
        encoding: 'pcm_s16le',
        sampleRate: 22050,
        channels: 1,
      });
      await started;
      capture.port.deliver(new Int16Array(320).fill(7));
      const [frame] = browser.socket.sentBinary;
      expect(frame?.byteLength).toBe(640);
      expect(new Int16Array(frame?.slice().buffer ?? new ArrayBuffer(0))[0]).toBe(7);
      expect(capture.options?.processorOptions).toEqual({ targetRate: 16_000, frameSamples: 320 });
    });

    it('sends playable once the call is accepted and audio can play', async () => {
      const browser = fakeBrowser();
      await startCall(browser);
      expect(browser.socket.sentJson).toEqual([{ type: 'playable' }]);
    });

    it('waits for a suspended AudioContext to run before sending playable', async () => {
      const browser = fakeBrowser({ contextState: 'suspended' });
      await startCall(browser);
      expect(browser.socket.sentJson).toEqual([]);
      browser.contexts[0]?.setState('running');
      expect(browser.socket.sentJson).toEqual([{ type: 'playable' }]);
    });

    it('send() and say() send JSON; end() asks the server to end the call', async () => {
      const browser = fakeBrowser();
      const { client } = await startCall(browser);
      client.send({ type: 'add-message', message: { role: 'system', content: 'Be brief.' } });
      client.say('Goodbye', true);
      client.say('Hello');
      client.send({ type: 'control', control: 'mute-assistant' });
      await client.end();
      expect(browser.socket.sentJson.slice(1)).toEqual([
        { type: 'add-message', message: { role: 'system', content: 'Be brief.' } },
        { type: 'say', message: 'Goodbye', endCallAfterSpoken: true },
        { type: 'say', message: 'Hello' },
        { type: 'control', control: 'mute-assistant' },
        { type: 'control', control: 'end-call' },
      ]);
      expect(browser.socket.closedWith?.code).toBe(1000);
    });

    it('reports a server error message during the call', async () => {
      const browser = fakeBrowser();
      const { log } = await startCall(browser);
      browser.socket.serverSend({ type: 'error', error: 'A text message must be JSON.' });
      const [error] = log.errors();
      expect(error?.kind).toBe('server');
      expect(error?.message).toBe('A text message must be JSON.');
      expect(log.named('message').at(-1)?.value).toEqual({
        type: 'error',
        error: 'A text message must be JSON.',
      });
    });

    it('keeps going when a listener throws', async () => {
      const browser = fakeBrowser();
      const setup = makeClient(browser);
      const failing = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      setup.client.on('message', () => {
        throw new Error('listener bug');
      });
      const { log } = await startCall(browser, setup);
      browser.socket.serverSend({ type: 'hang' });
      expect(log.named('message')).toHaveLength(2);
      expect(failing).toHaveBeenCalled();
    });
  });

  describe('ending', () => {
    it('stop() closes the socket with 1000, releases everything and emits call-end once', async () => {
      const browser = fakeBrowser();
      const { client, log } = await startCall(browser);
      await client.stop();
      await client.stop();
      expect(log.named('call-end')).toEqual([
        { name: 'call-end', value: { endedReason: 'customer-ended-call' } },
      ]);
      expect(browser.socket.closedWith).toEqual({ code: 1000, reason: undefined });
      expect(browser.tracks[0]?.stopped).toBe(true);
      expect(browser.contexts[0]?.state).toBe('closed');
      expect(browser.workletNodes.every((n) => n.disconnected && n.port.closed)).toBe(true);
      expect(client.transportKind).toBeNull();
      expect(() => client.setMuted(true)).toThrow('Call object is not available.');
      // A late close from the server changes nothing.
      browser.socket.serverClose(1000);
      expect(log.named('call-end')).toHaveLength(1);
      expect(log.errors()).toHaveLength(0);
    });

    it('ends with the reason the server gave when it ends the call', async () => {
      const browser = fakeBrowser();
      const { log } = await startCall(browser);
      browser.socket.serverSend({ type: 'hang' });
      browser.socket.serverSend({
        type: 'status-update',
        status: 'ended',
        endedReason: 'assistant-ended-call',
      });
      browser.socket.serverClose(1000, 'assistant-ended-call');
      expect(log.names()).toEqual(['message', 'call-start', 'message', 'message', 'call-end']);
      expect(log.named('call-end')[0]?.value).toEqual({ endedReason: 'assistant-ended-call' });
      expect(log.errors()).toHaveLength(0);
      expect(browser.tracks[0]?.stopped).toBe(true);
    });

    it('reports a dropped connection as ConnectionLostError, then call-end', async () => {
      const browser = fakeBrowser();
      const { client, log } = await startCall(browser);
      browser.socket.serverClose(1006);
      expect(log.names().slice(-2)).toEqual(['error', 'call-end']);
      const [error] = log.errors();
      expect(error).toBeInstanceOf(ConnectionLostError);
      expect(error?.name).toBe('ConnectionLostError');
      expect(error?.message).toBe('The connection to the assistant was lost.');
      expect(error?.closeCode).toBe(1006);
      expect(log.named('call-end')[0]?.value).toEqual({});
      expect(browser.tracks[0]?.stopped).toBe(true);
      expect(browser.contexts[0]?.state).toBe('closed');
      expect(client.transportKind).toBeNull();
      // Started flag reset: a new call can start.
      const next = client.start('assistant-1');
      await vi.waitFor(() => expect(browser.sockets).toHaveLength(2));
      browser.socket.accept();
      expect(await next).not.toBeNull();
    });
  });

  describe('mute', () => {
    it('throws without a call', () => {
      const client = new WebCallClient('pk');
      expect(() => client.setMuted(true)).toThrow(new Error('Call object is not available.'));
      expect(client.isMuted()).toBe(false);
    });

    it('disables the track and sends silence while muted', async () => {
      const browser = fakeBrowser();
      const { client } = await startCall(browser);
      const capture = browser.node('talkbooth-capture');
      client.setMuted(true);
      expect(client.isMuted()).toBe(true);
      expect(browser.tracks[0]?.enabled).toBe(false);
      capture.port.deliver(new Int16Array(320).fill(1234));
      const muted = browser.socket.sentBinary.at(-1);
      expect(muted?.byteLength).toBe(640);
      expect(muted?.every((b) => b === 0)).toBe(true);
      client.setMuted(false);
      expect(browser.tracks[0]?.enabled).toBe(true);
      expect(client.isMuted()).toBe(false);
      capture.port.deliver(new Int16Array(320).fill(1234));
      expect(browser.socket.sentBinary.at(-1)?.some((b) => b !== 0)).toBe(true);
    });
  });

  describe('speech and volume', () => {
    /** The playback worklet reports having output this RMS for ~100 ms. */
    function playLevel(browser: Browser, rms: number) {
      const frames = 4800;
      browser.node('talkbooth-playback').port.deliver({
        type: 'level',
        sumSquares: rms * rms * frames,
        frames,
      });
    }

    it('follows the assistant level every 100 ms with the exact constants', async () => {
      vi.useFakeTimers({ now: 0 });
      const browser = fakeBrowser();
      const { client, log } = await startCall(browser);
      const t0 = Date.now();
      const timeline: string[] = [];
      client.on('speech-start', () => timeline.push(`speech-start@${Date.now() - t0}`));
      client.on('speech-end', () => timeline.push(`speech-end@${Date.now() - t0}`));
      log.events.length = 0;
      // One level per 100 ms tick: the sample at t0 + 100·(i + 1) sees levels[i].
      const levels = [0, 0.005, 0.03, 0.15, 0.3, 0.011, 0, 0.01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
      for (const level of levels) {
        playLevel(browser, level);
        await vi.advanceTimersByTimeAsync(100);
      }
      const volumes = log.named('volume-level').map((e) => Number((e.value as number).toFixed(4)));
      expect(volumes).toHaveLength(levels.length);
      expect(volumes.slice(0, 9)).toEqual([0, 0.0333, 0.2, 1, 1, 0.0733, 0, 0.0667, 0]);
      // Starts with the first level above 0.01 (0.03 at 300 ms); 0.01 itself is not speech;
      // ends 1000 ms after the last level above it (0.011 at 600 ms).
      expect(timeline).toEqual(['speech-start@300', 'speech-end@1600']);
    });

    it('emits speech-end exactly 1000 ms after the last loud sample', async () => {
      vi.useFakeTimers({ now: 0 });
      const browser = fakeBrowser();
      const { client, log } = await startCall(browser);
      const times: Record<string, number> = {};
      client.on('speech-start', () => (times.start = Date.now()));
      client.on('speech-end', () => (times.end = Date.now()));
      const t0 = Date.now();
      playLevel(browser, 0.2);
      await vi.advanceTimersByTimeAsync(100); // sample at t0+100: speech-start
      playLevel(browser, 0.2);
      await vi.advanceTimersByTimeAsync(100); // t0+200: last loud sample
      await vi.advanceTimersByTimeAsync(999);
      expect(times.end).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(times.start).toBe(t0 + 100);
      expect(times.end).toBe(t0 + 1200);
      expect(log.named('speech-start')).toHaveLength(1);
      expect(log.named('speech-end')).toHaveLength(1);
    });

    it('ends speech with the call', async () => {
      vi.useFakeTimers({ now: 0 });
      const browser = fakeBrowser();
      const { client, log } = await startCall(browser);
      playLevel(browser, 0.2);
      await vi.advanceTimersByTimeAsync(100);
      await client.stop();
      expect(log.names().slice(-3)).toEqual(['speech-start', 'speech-end', 'call-end']);
      await vi.advanceTimersByTimeAsync(5000);
      expect(log.named('speech-end')).toHaveLength(1);
      expect(log.named('volume-level').length).toBe(1); // none after the call
    });
  });

  describe('echo-cancellation loopback', () => {
    beforeEach(() => {
      FakePeerConnection.instances = [];
      FakePeerConnection.failOffers = false;
    });

    function withLoopback(browser: Browser) {
      const elements: { srcObject: unknown; autoplay: boolean; played: boolean }[] = [];
      return makeClient(browser, fakeFetch(), {
        echoCancellationLoopback: true,
        RTCPeerConnection: FakePeerConnection,
        MediaStream: FakeStream,
        createAudioElement: () => {
          const element = {
            srcObject: null as unknown,
            autoplay: false,
            played: false,
            dataset: {},
            play: async () => {
              element.played = true;
            },
            pause: () => undefined,
            remove: () => undefined,
          };
          elements.push(element);
          return element as never;
        },
      });
    }

    it('plays through a local peer connection pair into an <audio> element', async () => {
      const browser = fakeBrowser();
      const setup = withLoopback(browser);
      const { client } = await startCall(browser, setup);
      expect(client.audioOutput).toBe('loopback');
      const [sender, receiver] = FakePeerConnection.instances;
      const destination = browser.contexts[0]?.streamDestinations[0];
      expect(sender?.tracks[0]?.track).toBe(destination?.stream.getAudioTracks()[0]);
      expect(browser.node('talkbooth-playback').connections).toEqual([destination]);
      expect(receiver?.receiver.jitterBufferTarget).toBe(0);
      expect(sender?.remote?.sdp).toContain('maxaveragebitrate=128000');
      expect(browser.socket.sentJson).toEqual([{ type: 'playable' }]);
      await client.stop();
      expect(FakePeerConnection.instances.every((pc) => pc.closed)).toBe(true);
    });

    it('falls back to direct playback when the loopback fails', async () => {
      FakePeerConnection.failOffers = true;
      const browser = fakeBrowser();
      const setup = withLoopback(browser);
      const { client } = await startCall(browser, setup);
      expect(client.audioOutput).toBe('direct');
      const context = browser.contexts[0];
      expect(browser.node('talkbooth-playback').connections).toEqual([context?.destination]);
      expect(warn).toHaveBeenCalledWith(
        expect.stringContaining('echo-cancellation loopback could not be set up'),
        expect.any(Error),
      );
    });

    it('can be turned off', async () => {
      const browser = fakeBrowser();
      const setup = makeClient(browser, fakeFetch(), {
        echoCancellationLoopback: false,
        RTCPeerConnection: FakePeerConnection,
        MediaStream: FakeStream,
      });
      const { client } = await startCall(browser, setup);
      expect(client.audioOutput).toBe('direct');
      expect(FakePeerConnection.instances).toHaveLength(0);
    });
  });

  it('reports the browser’s noise suppression when it keeps it on although asked not to', async () => {
    const browser = fakeBrowser({ noiseSuppression: true });
    const { client } = await startCall(browser);
    expect(browser.constraints[0]).toMatchObject({ audio: { noiseSuppression: false } });
    expect(client.noiseCancellation).toBe('browser');
    expect(new FakeTrack().getSettings().noiseSuppression).toBe(true);
  });
});
