import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FakePeerConnection, FakeStream, FakeTrack } from '../../test-support/fakes.js';
import { openLoopback, tuneOpus } from './loopback.js';

const CHROME_ANSWER = [
  'v=0',
  'm=audio 9 UDP/TLS/RTP/SAVPF 111 63 9 0 8 13 110 126',
  'a=rtpmap:111 opus/48000/2',
  'a=rtcp-fb:111 transport-cc',
  'a=fmtp:111 minptime=10;useinbandfec=1',
  'a=rtpmap:63 red/48000/2',
  'a=fmtp:63 111/111',
  '',
].join('\r\n');

describe('tuneOpus', () => {
  it('asks for mono, high-bitrate Opus without DTX in 10 ms packets', () => {
    const tuned = tuneOpus(CHROME_ANSWER);
    expect(tuned).toContain(
      'a=fmtp:111 useinbandfec=1;stereo=0;sprop-stereo=0;maxaveragebitrate=128000;usedtx=0;minptime=10\r\na=ptime:10\r\n',
    );
    expect(tuned).toContain('a=fmtp:63 111/111'); // other codecs untouched
    expect(tuneOpus(tuned)).toBe(tuned); // idempotent
  });

  it('adds an fmtp line when Opus has none, and leaves SDPs without Opus alone', () => {
    const bare = 'v=0\r\na=rtpmap:111 opus/48000/2\r\n';
    expect(tuneOpus(bare)).toContain('a=rtpmap:111 opus/48000/2\r\na=fmtp:111 stereo=0;');
    expect(tuneOpus('v=0\r\na=rtpmap:0 PCMU/8000\r\n')).toBe('v=0\r\na=rtpmap:0 PCMU/8000\r\n');
  });
});

describe('openLoopback', () => {
  beforeEach(() => {
    FakePeerConnection.instances = [];
    FakePeerConnection.failOffers = false;
  });

  function element() {
    return {
      autoplay: false,
      srcObject: null as unknown,
      play: vi.fn(async () => undefined),
      pause: vi.fn(),
      remove: vi.fn(),
    };
  }

  it('sends the playback track through a peer connection pair into an element', async () => {
    const audio = element();
    const source = new FakeStream([new FakeTrack('audio', {})]);
    const loop = await openLoopback(source, {
      RTCPeerConnection: FakePeerConnection,
      MediaStream: FakeStream,
      createAudioElement: () => audio as never,
    });
    expect(audio.srcObject).toBe(source); // the receiver's stream (the fake passes it through)
    expect(audio.autoplay).toBe(true);
    expect(audio.play).toHaveBeenCalled();
    loop.close();
    expect(FakePeerConnection.instances.map((pc) => pc.closed)).toEqual([true, true]);
    expect(audio.srcObject).toBeNull();
  });

  it('gives up, cleaning up, when no track arrives in time', async () => {
    const audio = element();
    await expect(
      openLoopback(new FakeStream([]), {
        RTCPeerConnection: FakePeerConnection,
        MediaStream: FakeStream,
        createAudioElement: () => audio as never,
        timeoutMs: 20,
      }),
    ).rejects.toThrow('The loopback received no track.');
    expect(FakePeerConnection.instances.every((pc) => pc.closed)).toBe(true);
    expect(audio.remove).toHaveBeenCalled();
  });
});
