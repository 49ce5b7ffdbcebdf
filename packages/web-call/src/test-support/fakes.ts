/**
 * Fakes of the browser parts the WebSocket transport uses (getUserMedia, AudioContext,
 * AudioWorkletNode, WebSocket, RTCPeerConnection), recording what the client does with them.
 * Real browser behaviour is covered by the Playwright tests in Chromium.
 */
import type {
  AudioContextLike,
  AudioNodeLike,
  AudioWorkletNodeLike,
  MediaStreamAudioDestinationNodeLike,
  MediaStreamLike,
  MediaStreamTrackLike,
  MessagePortLike,
  WebSocketLike,
} from '../transports/transport.js';
import type { RtcPeerConnectionLike, RtcTrackEventLike } from '../transports/websocket/loopback.js';
import type { WebCallClientOptions } from '../web-call-client.js';

export class FakeTrack implements MediaStreamTrackLike {
  enabled = true;
  stopped = false;
  constructor(
    readonly kind = 'audio',
    private readonly settings: MediaTrackSettings = { noiseSuppression: true },
  ) {}
  stop(): void {
    this.stopped = true;
  }
  getSettings(): MediaTrackSettings {
    return this.settings;
  }
}

export class FakeStream implements MediaStreamLike {
  constructor(readonly tracks: MediaStreamTrackLike[]) {}
  getTracks(): MediaStreamTrackLike[] {
    return this.tracks;
  }
  getAudioTracks(): MediaStreamTrackLike[] {
    return this.tracks.filter((t) => t.kind === 'audio');
  }
}

export class FakePort implements MessagePortLike {
  readonly posted: { message: unknown; transfer: Transferable[] | undefined }[] = [];
  onmessage: ((event: MessageEvent) => void) | null = null;
  closed = false;
  postMessage(message: unknown, transfer?: Transferable[]): void {
    this.posted.push({ message, transfer });
  }
  close(): void {
    this.closed = true;
  }
  /** A message from the worklet side. */
  deliver(data: unknown): void {
    this.onmessage?.({ data } as MessageEvent);
  }
}

export class FakeNode implements AudioNodeLike {
  readonly connections: AudioNodeLike[] = [];
  disconnected = false;
  connect(destination: AudioNodeLike): AudioNodeLike {
    this.connections.push(destination);
    return destination;
  }
  disconnect(): void {
    this.connections.length = 0;
    this.disconnected = true;
  }
}

export class FakeWorkletNode extends FakeNode implements AudioWorkletNodeLike {
  readonly port = new FakePort();
  constructor(
    readonly context: AudioContextLike,
    readonly name: string,
    readonly options?: AudioWorkletNodeOptions,
  ) {
    super();
  }
}

export class FakeDestinationNode extends FakeNode implements MediaStreamAudioDestinationNodeLike {
  readonly stream = new FakeStream([new FakeTrack('audio', {})]);
}

export class FakeAudioContext implements AudioContextLike {
  state: AudioContextState;
  readonly sampleRate = 48_000;
  readonly destination = new FakeNode();
  readonly modules: string[] = [];
  readonly sources: { stream: MediaStreamLike; node: FakeNode }[] = [];
  readonly streamDestinations: FakeDestinationNode[] = [];
  onstatechange: ((event: Event) => void) | null = null;
  /** Make addModule fail. */
  failModules = false;
  readonly audioWorklet = {
    addModule: async (url: string | URL): Promise<void> => {
      this.modules.push(String(url));
      if (this.failModules)
        throw new DOMException('Unable to load a worklet module.', 'AbortError');
    },
  };

  constructor(
    readonly options?: AudioContextOptions,
    initialState: AudioContextState = 'running',
  ) {
    this.state = initialState;
  }

  async resume(): Promise<void> {
    if (this.state === 'closed') throw new DOMException('closed', 'InvalidStateError');
  }

  async close(): Promise<void> {
    if (this.state === 'closed') throw new DOMException('closed', 'InvalidStateError');
    this.setState('closed');
  }

  setState(state: AudioContextState): void {
    this.state = state;
    this.onstatechange?.(new Event('statechange'));
  }

  createMediaStreamSource(stream: MediaStreamLike): AudioNodeLike {
    const node = new FakeNode();
    this.sources.push({ stream, node });
    return node;
  }

  createMediaStreamDestination(): MediaStreamAudioDestinationNodeLike {
    const node = new FakeDestinationNode();
    this.streamDestinations.push(node);
    return node;
  }
}

export class FakeSocket implements WebSocketLike {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 3;
  binaryType: BinaryType = 'blob';
  readyState = FakeSocket.CONNECTING;
  bufferedAmount = 0;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  readonly sent: (string | ArrayBufferLike | ArrayBufferView)[] = [];
  closedWith: { code: number | undefined; reason: string | undefined } | null = null;

  constructor(readonly url: string) {}

  send(data: string | ArrayBufferLike | ArrayBufferView): void {
    if (this.readyState !== FakeSocket.OPEN) throw new Error('InvalidStateError: not open');
    this.sent.push(data);
  }

  close(code?: number, reason?: string): void {
    this.closedWith ??= { code, reason };
    this.readyState = FakeSocket.CLOSED;
  }

  /** JSON messages the client sent, parsed. */
  get sentJson(): unknown[] {
    return this.sent.filter((d) => typeof d === 'string').map((d) => JSON.parse(d as string));
  }

  /** Binary messages the client sent. */
  get sentBinary(): Uint8Array[] {
    return this.sent
      .filter((d) => typeof d !== 'string')
      .map((d) =>
        ArrayBuffer.isView(d)
          ? new Uint8Array(d.buffer, d.byteOffset, d.byteLength)
          : new Uint8Array(d as ArrayBuffer),
      );
  }

  // ---- the server's side ----
  serverOpen(): void {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.(new Event('open'));
  }

  serverSend(data: string | ArrayBuffer | object): void {
    const payload =
      typeof data === 'string' || data instanceof ArrayBuffer ? data : JSON.stringify(data);
    this.onmessage?.({ data: payload } as MessageEvent);
  }

  /** The server accepts the call: open, audio-format, listening. */
  accept(sampleRate = 22_050): void {
    this.serverOpen();
    this.serverSend({ type: 'audio-format', encoding: 'pcm_s16le', sampleRate, channels: 1 });
    this.serverSend('listening');
  }

  /** A socket error (the browser says nothing more, e.g. a connection its CSP blocked). */
  serverError(): void {
    this.onerror?.(new Event('error'));
  }

  serverClose(code = 1000, reason = ''): void {
    this.readyState = FakeSocket.CLOSED;
    this.onclose?.({ code, reason, wasClean: code !== 1006 } as CloseEvent);
  }
}

/** A pair of peer connections that "connect" when both descriptions are set. */
export class FakePeerConnection implements RtcPeerConnectionLike {
  static instances: FakePeerConnection[] = [];
  /** Make createOffer reject (a browser without a usable WebRTC stack). */
  static failOffers = false;
  onicecandidate: ((event: { candidate: RTCIceCandidate | null }) => void) | null = null;
  ontrack: ((event: RtcTrackEventLike) => void) | null = null;
  onconnectionstatechange: ((event: Event) => void) | null = null;
  connectionState: RTCPeerConnectionState = 'new';
  readonly tracks: { track: MediaStreamTrackLike; streams: MediaStreamLike[] }[] = [];
  local: RTCSessionDescriptionInit | null = null;
  remote: RTCSessionDescriptionInit | null = null;
  closed = false;
  receiver = { jitterBufferTarget: null as number | null };
  peer: FakePeerConnection | null = null;

  constructor() {
    FakePeerConnection.instances.push(this);
  }
  addTrack(track: MediaStreamTrackLike, ...streams: MediaStreamLike[]): unknown {
    this.tracks.push({ track, streams });
    return {};
  }
  async addIceCandidate(): Promise<void> {}
  async createOffer(): Promise<RTCSessionDescriptionInit> {
    if (FakePeerConnection.failOffers) throw new Error('WebRTC is not available');
    return {
      type: 'offer',
      sdp: 'v=0\r\na=rtpmap:111 opus/48000/2\r\na=fmtp:111 minptime=10;useinbandfec=1\r\n',
    };
  }
  async createAnswer(): Promise<RTCSessionDescriptionInit> {
    return {
      type: 'answer',
      sdp: 'v=0\r\na=rtpmap:111 opus/48000/2\r\na=fmtp:111 minptime=10;useinbandfec=1\r\n',
    };
  }
  async setLocalDescription(description: RTCSessionDescriptionInit): Promise<void> {
    this.local = description;
    this.maybeConnect();
  }
  async setRemoteDescription(description: RTCSessionDescriptionInit): Promise<void> {
    this.remote = description;
    if (description.type === 'offer') {
      // The receiver learns of the sender's tracks from its offer.
      const sender = FakePeerConnection.instances.find(
        (pc) => pc !== this && pc.local === description,
      );
      if (sender !== undefined) {
        this.peer = sender;
        sender.peer = this;
        for (const { track, streams } of sender.tracks) {
          this.ontrack?.({ track, streams, receiver: this.receiver });
        }
      }
    }
    this.maybeConnect();
  }
  close(): void {
    this.closed = true;
    this.connectionState = 'closed';
  }
  private maybeConnect(): void {
    const peer = this.peer;
    if (peer === null || !this.local || !this.remote || !peer.local || !peer.remote) return;
    for (const pc of [this, peer]) {
      if (pc.connectionState === 'connected') continue;
      pc.connectionState = 'connected';
      queueMicrotask(() => pc.onconnectionstatechange?.(new Event('connectionstatechange')));
    }
  }
}

/** Everything a WebSocket call needs, faked, plus what the client did with it. */
export function fakeBrowser(
  setup: { micError?: Error; noiseSuppression?: boolean; contextState?: AudioContextState } = {},
) {
  const contexts: FakeAudioContext[] = [];
  const workletNodes: FakeWorkletNode[] = [];
  const sockets: FakeSocket[] = [];
  const tracks: FakeTrack[] = [];
  const constraints: MediaStreamConstraints[] = [];

  class AudioContext extends FakeAudioContext {
    constructor(options?: AudioContextOptions) {
      super(options, setup.contextState ?? 'running');
      contexts.push(this);
    }
  }
  class AudioWorkletNode extends FakeWorkletNode {
    constructor(context: AudioContextLike, name: string, options?: AudioWorkletNodeOptions) {
      super(context, name, options);
      workletNodes.push(this);
      // The playback processor says it is ready once constructed (on the audio thread).
      if (name === 'talkbooth-playback') queueMicrotask(() => this.port.deliver({ type: 'ready' }));
    }
  }
  class WebSocket extends FakeSocket {
    constructor(url: string) {
      super(url);
      sockets.push(this);
    }
  }
  const getUserMedia = async (c: MediaStreamConstraints): Promise<MediaStreamLike> => {
    constraints.push(c);
    if (setup.micError !== undefined) throw setup.micError;
    // As a browser does: the track's settings are what was asked, unless the setup says
    // the browser ignores it.
    const audio = typeof c.audio === 'object' ? c.audio : {};
    const asked = typeof audio.noiseSuppression === 'boolean' ? audio.noiseSuppression : true;
    const track = new FakeTrack('audio', { noiseSuppression: setup.noiseSuppression ?? asked });
    tracks.push(track);
    return new FakeStream([track]);
  };

  const options: WebCallClientOptions = {
    AudioContext,
    AudioWorkletNode,
    WebSocket,
    getUserMedia,
    echoCancellationLoopback: false,
  };
  return {
    options,
    contexts,
    workletNodes,
    sockets,
    tracks,
    constraints,
    get socket(): FakeSocket {
      const socket = sockets.at(-1);
      if (socket === undefined) throw new Error('No socket was opened.');
      return socket;
    },
    node(name: 'talkbooth-capture' | 'talkbooth-playback'): FakeWorkletNode {
      const node = workletNodes.filter((n) => n.name === name).at(-1);
      if (node === undefined) throw new Error(`No ${name} node.`);
      return node;
    },
  };
}

/** A fetch that answers `POST /call/web` like the server (201 and a call). */
export function fakeFetch(
  answer: { status?: number; body?: unknown; webCallUrl?: string } = {},
): WebCallClientOptions['fetch'] & { requests: { url: string; init: RequestInit }[] } {
  const requests: { url: string; init: RequestInit }[] = [];
  const fetch = async (url: string, init: RequestInit): Promise<Response> => {
    requests.push({ url, init });
    const status = answer.status ?? 201;
    const body =
      answer.body ??
      ({
        id: `call-${requests.length}`,
        orgId: 'org-1',
        type: 'webCall',
        status: 'queued',
        createdAt: '2025-01-01T00:00:00.000Z',
        updatedAt: '2025-01-01T00:00:00.000Z',
        webCallUrl:
          answer.webCallUrl ?? `ws://booth.test/ws/call/call-${requests.length}?token=secret`,
      } as const);
    return new Response(typeof body === 'string' ? body : JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  };
  return Object.assign(fetch, { requests });
}

/** Lets queued promise callbacks run (microtasks only: safe with fake timers). */
export async function flush(times = 50): Promise<void> {
  for (let i = 0; i < times; i += 1) await Promise.resolve();
}
