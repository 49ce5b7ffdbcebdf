import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ServerMessage } from '@talkbooth/protocol';
import type { WebCallError } from '../../errors.js';
import { FakeStream, fakeFetch, flush } from '../../test-support/fakes.js';
import { WebCallClient, type CallEndInfo } from '../../web-call-client.js';
import { dailyFactoryOf } from './daily-transport.js';
import { FakeDaily, type FakeDailyCall, fakeMediaStreamTrack } from './fake-daily.js';

const ROOM = 'https://vapi.daily.co/room-123';

function setup(prepare?: (call: FakeDailyCall) => void) {
  const daily = new FakeDaily();
  daily.prepare = prepare ?? null;
  const fetch = fakeFetch({ webCallUrl: ROOM });
  const client = new WebCallClient('pk_hosted', undefined, {
    fetch,
    loadDaily: daily.loader,
    MediaStream: FakeStream,
  });
  const events: { name: string; value?: unknown }[] = [];
  for (const name of ['call-start', 'speech-start', 'speech-end'] as const) {
    client.on(name, () => events.push({ name }));
  }
  client.on('call-end', (info: CallEndInfo) => events.push({ name: 'call-end', value: info }));
  client.on('volume-level', (v: number) => events.push({ name: 'volume-level', value: v }));
  client.on('message', (m: ServerMessage) => events.push({ name: 'message', value: m }));
  client.on('error', (e: Error) => events.push({ name: 'error', value: e }));
  const names = () => events.filter((e) => e.name !== 'volume-level').map((e) => e.name);
  return { daily, fetch, client, events, names };
}

function audioElements(): HTMLAudioElement[] {
  return [...document.querySelectorAll('audio')];
}

describe('Daily transport, against a fake of the Daily call object', () => {
  let play: ReturnType<typeof vi.spyOn>;
  let warn: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    document.body.innerHTML = '';
    // jsdom does not play media.
    play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });

  it('creates an audio-only call object and joins the room from the call', async () => {
    const { client, daily, fetch } = setup();
    const call = await client.start('assistant-1');
    expect(call?.webCallUrl).toBe(ROOM);
    expect(fetch.requests[0]?.url).toBe('https://api.vapi.ai/call/web');
    const room = daily.last;
    expect(room.factoryOptions).toEqual({ audioSource: true, videoSource: false });
    expect(room.joinOptions).toEqual({ url: ROOM, subscribeToTracksAutomatically: false });
    expect(room.meetingState).toBe('joined-meeting');
    expect(room.audioLevelObserverInterval).toBe(100);
    expect(client.transportKind).toBe('daily');
    expect(client.audioOutput).toBe('daily');
  });

  it('subscribes to each remote participant and plays each in its own <audio> element', async () => {
    const { client, daily } = setup();
    await client.start('assistant-1');
    const room = daily.last;
    const speakerTrack = fakeMediaStreamTrack('audio', 'speaker-track');
    const speaker = room.addRemoteParticipant({
      userName: 'Vapi Speaker',
      audioTrack: speakerTrack,
    });
    const other = room.addRemoteParticipant({
      userName: 'Other',
      audioTrack: fakeMediaStreamTrack('audio', 'other-track'),
    });
    await flush();
    expect(room.subscriptions.get(speaker.session_id)).toMatchObject({ audio: true, video: false });
    expect(room.subscriptions.get(other.session_id)).toMatchObject({ audio: true, video: false });
    const elements = audioElements();
    expect(elements.map((e) => e.dataset.participantId)).toEqual([
      speaker.session_id,
      other.session_id,
    ]);
    const first = elements[0];
    expect(first?.autoplay).toBe(true);
    const source: unknown = first?.srcObject;
    expect(source).toBeInstanceOf(FakeStream);
    expect((source as FakeStream).getTracks()).toEqual([speakerTrack]);
    expect(play).toHaveBeenCalledTimes(2);

    room.removeRemoteParticipant(other.session_id);
    expect(audioElements().map((e) => e.dataset.participantId)).toEqual([speaker.session_id]);
    room.removeRemoteParticipant(speaker.session_id);
    expect(audioElements()).toHaveLength(0);
  });

  it('subscribes to participants already in the room when it joins', async () => {
    const { client, daily } = setup((room) => {
      room.addRemoteParticipant({ sessionId: 'bot', audioTrack: fakeMediaStreamTrack() });
    });
    await client.start('assistant-1');
    await flush();
    expect(daily.last.subscriptions.get('bot')).toMatchObject({ audio: true });
    expect(audioElements().map((e) => e.dataset.participantId)).toEqual(['bot']);
  });

  it('tells the room playable once the assistant audio plays', async () => {
    const { client, daily } = setup();
    await client.start('assistant-1');
    const room = daily.last;
    expect(room.appMessages).toEqual([]);
    room.addRemoteParticipant({ audioTrack: fakeMediaStreamTrack() });
    room.addRemoteParticipant({ audioTrack: fakeMediaStreamTrack() });
    await flush();
    expect(room.appMessages).toEqual([{ data: 'playable', to: '*' }]);
  });

  it('reports audio that cannot play (autoplay policy)', async () => {
    play.mockRejectedValue(new DOMException('play() needs a gesture', 'NotAllowedError'));
    const { client, daily, events } = setup();
    await client.start('assistant-1');
    daily.last.addRemoteParticipant({ audioTrack: fakeMediaStreamTrack() });
    await flush();
    const error = events.find((e) => e.name === 'error')?.value as WebCallError | undefined;
    expect(error?.kind).toBe('audio');
    expect(error?.message).toContain('could not start playing');
  });

  it('turns on the noise-cancellation processor after joining', async () => {
    const { client, daily } = setup();
    await client.start('assistant-1');
    await flush();
    const room = daily.last;
    const order = room.log.map((entry) => entry.method);
    expect(order.indexOf('join')).toBeLessThan(order.indexOf('updateInputSettings'));
    expect(room.inputSettings).toEqual({ audio: { processor: { type: 'noise-cancellation' } } });
    expect(client.noiseCancellation).toBe('krisp');
  });

  it('falls back to no noise cancellation when the processor fails', async () => {
    const { client, daily, events } = setup((room) => {
      room.noiseCancellationError = new Error('KrispInitError: Canceled');
    });
    expect(await client.start('assistant-1')).not.toBeNull();
    await flush();
    expect(client.noiseCancellation).toBe('none');
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining('noise cancellation could not be turned on'),
      expect.any(Error),
    );
    expect(events.filter((e) => e.name === 'error')).toHaveLength(0); // the call goes on
    expect(daily.last.meetingState).toBe('joined-meeting');
  });

  it('turns noise cancellation off when the processor fails mid-call', async () => {
    const { client, daily } = setup();
    await client.start('assistant-1');
    await flush();
    daily.last.failAudioProcessor();
    await flush();
    expect(client.noiseCancellation).toBe('none');
    expect(daily.last.inputSettings).toEqual({ audio: { processor: { type: 'none' } } });
    expect(daily.last.localAudio()).toBe(true);
  });

  it('turns the remote audio levels into speech and volume events', async () => {
    vi.useFakeTimers({ now: 0 });
    try {
      const { client, daily, events, names } = setup();
      await client.start('assistant-1');
      const room = daily.last;
      const times: string[] = [];
      client.on('speech-start', () => times.push(`start@${Date.now()}`));
      client.on('speech-end', () => times.push(`end@${Date.now()}`));
      room.emitRemoteAudioLevels({ bot: 0.004, listener: 0.004 }); // sum 0.008: quiet
      await vi.advanceTimersByTimeAsync(100);
      room.emitRemoteAudioLevels({ bot: 0.075, listener: 0 });
      await vi.advanceTimersByTimeAsync(100);
      room.emitRemoteAudioLevels({ bot: 0.3 });
      await vi.advanceTimersByTimeAsync(1000);
      const volumes = events
        .filter((e) => e.name === 'volume-level')
        .map((e) => Number((e.value as number).toFixed(4)));
      expect(volumes).toEqual([0.0533, 0.5, 1]);
      expect(times).toEqual(['start@100', 'end@1200']);
      expect(names()).toEqual(['speech-start', 'speech-end']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('turns app messages into messages, and listening into call-start', async () => {
    const { client, daily, events, names } = setup();
    await client.start('assistant-1');
    const room = daily.last;
    room.receiveAppMessage('listening');
    room.receiveAppMessage(
      JSON.stringify({
        type: 'transcript',
        role: 'assistant',
        transcriptType: 'final',
        transcript: 'Hi',
      }),
    );
    room.receiveAppMessage({ type: 'conversation-update', conversation: [] });
    room.receiveAppMessage('{broken');
    expect(names()).toEqual(['call-start', 'message', 'message']);
    expect(events[1]?.value).toMatchObject({ type: 'transcript', transcript: 'Hi' });
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('sends messages with sendAppMessage and mutes with setLocalAudio', async () => {
    const { client, daily } = setup();
    await client.start('assistant-1');
    const room = daily.last;
    client.say('Hello there', true);
    client.send({ type: 'control', control: 'mute-assistant' });
    expect(room.appMessages.map((m) => m.data)).toEqual([
      JSON.stringify({ type: 'say', message: 'Hello there', endCallAfterSpoken: true }),
      JSON.stringify({ type: 'control', control: 'mute-assistant' }),
    ]);
    client.setMuted(true);
    expect(room.localAudio()).toBe(false);
    expect(client.isMuted()).toBe(true);
    client.setMuted(false);
    expect(room.localAudio()).toBe(true);
    expect(client.isMuted()).toBe(false);
  });

  it('stop() leaves and destroys the call object, removes the audio, and ends once', async () => {
    const { client, daily, events } = setup();
    await client.start('assistant-1');
    const room = daily.last;
    room.addRemoteParticipant({ audioTrack: fakeMediaStreamTrack() });
    await flush();
    expect(audioElements()).toHaveLength(1);
    await client.stop();
    await client.stop();
    expect(room.log.map((e) => e.method).slice(-2)).toEqual(['leave', 'destroy']);
    expect(room.destroyed).toBe(true);
    expect(audioElements()).toHaveLength(0);
    expect(events.filter((e) => e.name === 'call-end')).toEqual([
      { name: 'call-end', value: { endedReason: 'customer-ended-call' } },
    ]);
    expect(() => client.setMuted(true)).toThrow('Call object is not available.');
  });

  it('ends the call when the room ends (left-meeting), with the announced reason', async () => {
    const { client, daily, events, names } = setup();
    await client.start('assistant-1');
    const room = daily.last;
    room.addRemoteParticipant({ audioTrack: fakeMediaStreamTrack() });
    await flush();
    room.receiveAppMessage(
      JSON.stringify({
        type: 'status-update',
        status: 'ended',
        endedReason: 'assistant-ended-call',
      }),
    );
    room.endMeeting();
    await flush();
    expect(names()).toEqual(['message', 'call-end']);
    expect(events.at(-1)?.value).toEqual({ endedReason: 'assistant-ended-call' });
    expect(audioElements()).toHaveLength(0);
    expect(room.destroyed).toBe(true);
    expect(client.transportKind).toBeNull();
  });

  it('reports a fatal room error, then ends the call', async () => {
    const { client, daily, events, names } = setup();
    await client.start('assistant-1');
    daily.last.failFatally('network unreachable');
    await flush();
    expect(names()).toEqual(['error', 'call-end']);
    const error = events[0]?.value as WebCallError;
    expect(error.kind).toBe('daily');
    expect(error.message).toBe('The call room reported an error: network unreachable');
  });

  it('reports a failed join and resolves null after releasing the call object', async () => {
    const { client, daily, events } = setup((room) => {
      room.joinError = { errorMsg: 'Meeting has ended' };
    });
    expect(await client.start('assistant-1')).toBeNull();
    const error = events.find((e) => e.name === 'error')?.value as WebCallError;
    expect(error.kind).toBe('daily');
    expect(error.message).toBe('Could not join the call room: Meeting has ended');
    expect(daily.last.destroyed).toBe(true);
    expect(events.filter((e) => e.name === 'error')).toHaveLength(1);
  });

  it('finds Daily in the module shapes bundlers and Node give', () => {
    const factory = new FakeDaily();
    expect(dailyFactoryOf({ default: factory })).toBe(factory);
    expect(dailyFactoryOf({ default: { default: factory } })).toBe(factory);
    expect(() => dailyFactoryOf({})).toThrow('createCallObject');
  });
});
