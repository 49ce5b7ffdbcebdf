// A caller on the web-call socket, in Node: streams a microphone in real time (20 ms frames
// every 20 ms: speech when asked, a quiet noise floor otherwise) and notes exactly when the
// last frame of each utterance's speech left and when the assistant's audio came back.
import WebSocket from 'ws';
import { NOISE_DBFS, voice } from './speech.mjs';

const FRAME = voice.FRAME_SAMPLES;

/** Index of the last 20 ms frame of `samples` that is speech (well above the noise floor). */
function lastSpeechFrame(samples) {
  let last = 0;
  for (let i = 0; i * FRAME < samples.length; i += 1) {
    if (voice.rmsDbfs(samples.subarray(i * FRAME, (i + 1) * FRAME)) > NOISE_DBFS + 20) last = i;
  }
  return last;
}

/** How long after an assistant's stop a `clear` that took the reply back may still come. */
const TAKEN_BACK_WAIT_MS = 100;

export class Caller {
  messages = [];
  /** Arrival times (performance.now) of assistant audio chunks. */
  audioTimes = [];
  #queue = [];
  #marks = new Map();
  #seed = 1;
  #timer = null;
  #waiters = new Set();
  #open = true;

  constructor(socket) {
    this.socket = socket;
    socket.on('message', (data, isBinary) => {
      if (isBinary) this.audioTimes.push(performance.now());
      else {
        const text = data.toString();
        try {
          this.messages.push(JSON.parse(text));
        } catch {
          this.messages.push(text);
        }
      }
      for (const wake of [...this.#waiters]) wake();
    });
    this.closed = new Promise((resolve) => socket.on('close', resolve));
    // A call the server ended (a goodbye it heard, say) sends nothing more: lines still
    // queued are never sent, and whoever waits for them goes on.
    this.closed.then(() => {
      this.#open = false;
      for (const sent of this.#marks.values()) sent(performance.now());
      this.#marks.clear();
      for (const wake of [...this.#waiters]) wake();
    });
  }

  static async connect(webCallUrl) {
    const socket = new WebSocket(webCallUrl);
    // Listen before the socket opens: the server may speak in the very packet that opens it.
    const caller = new Caller(socket);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    await caller.waitFor(() => caller.messages.includes('listening'), 60_000, 'listening');
    socket.send(JSON.stringify({ type: 'playable' }));
    caller.#startMicrophone();
    return caller;
  }

  #startMicrophone() {
    let next = performance.now();
    const tick = () => {
      if (this.socket.readyState !== WebSocket.OPEN) return;
      const item = this.#queue.shift();
      const frame = item?.frame ?? voice.whiteNoise(FRAME, NOISE_DBFS, (this.#seed += 1));
      this.socket.send(Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength));
      if (item?.mark !== undefined) this.#marks.get(item.mark)(performance.now());
      // A microphone never catches up: after a stall of this process (a synthesis, a
      // collection), pacing starts again from now instead of sending the missed frames in
      // a burst, which the server would rightly drop as faster than real time.
      next = Math.max(next + 20, performance.now() - 20);
      this.#timer = setTimeout(tick, Math.max(0, next - performance.now()));
    };
    tick();
  }

  /**
   * Speaks `samples` in real time. Resolves with the moment (performance.now) the last
   * frame holding speech was sent: the caller's last word, known exactly.
   */
  say(samples) {
    if (!this.#open) return Promise.resolve(performance.now());
    const last = lastSpeechFrame(samples);
    const mark = Symbol('end of speech');
    const sent = new Promise((resolve) => this.#marks.set(mark, resolve));
    for (let i = 0; i * FRAME < samples.length; i += 1) {
      const frame = new Int16Array(FRAME);
      frame.set(samples.subarray(i * FRAME, (i + 1) * FRAME));
      this.#queue.push({ frame, mark: i === last ? mark : undefined });
    }
    return sent;
  }

  /** The first message matching `match` after index `from`. */
  find(match, from = 0) {
    return this.messages.slice(from).find((m) => typeof m === 'object' && match(m));
  }

  async waitFor(predicate, timeoutMs = 30_000, what = 'a message') {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const value = predicate();
      if (value) return value;
      if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => {
        const wake = () => {
          this.#waiters.delete(wake);
          resolve();
        };
        this.#waiters.add(wake);
        setTimeout(wake, 50);
      });
    }
  }

  /** Waits until the assistant has stopped speaking after message index `from`, or the call ended. */
  untilAssistantStops(from, timeoutMs = 60_000) {
    return this.waitFor(
      () =>
        this.find(
          (m) => m.type === 'speech-update' && m.role === 'assistant' && m.status === 'stopped',
          from,
        ) ?? !this.#open,
      timeoutMs,
      'the assistant to stop speaking',
    );
  }

  /**
   * Waits until the assistant stops after message index `from` with a reply it did not take
   * back. A stop followed by `clear` was taken back (the server heard this line go on over
   * it after a pause, or a later reading of the line heard an emergency): the reply that
   * follows is the turn's.
   */
  async #untilReplyStands(from) {
    const stopped = (m) =>
      typeof m === 'object' &&
      m.type === 'speech-update' &&
      m.role === 'assistant' &&
      m.status === 'stopped';
    let at = from;
    for (;;) {
      await this.untilAssistantStops(at);
      const stop = this.messages.findIndex((m, i) => i >= at && stopped(m));
      if (stop < 0) return;
      // The server sends `clear` right after the stop of a reply it took back.
      await new Promise((resolve) => setTimeout(resolve, TAKEN_BACK_WAIT_MS));
      const takenBack = this.messages
        .slice(stop + 1, stop + 4)
        .some((m) => typeof m === 'object' && m.type === 'clear');
      if (!takenBack) return;
      const started = await this.waitFor(
        () => {
          const i = this.messages.findIndex(
            (m, j) =>
              j > stop &&
              typeof m === 'object' &&
              m.type === 'speech-update' &&
              m.role === 'assistant' &&
              m.status === 'started',
          );
          return i >= 0 ? i : this.#open ? undefined : -1;
        },
        30_000,
        'the reply after one taken back',
      ).catch(() => -1);
      if (started < 0) return;
      at = started;
    }
  }

  /**
   * One turn: speaks `samples`, waits for the reply to be spoken in full, and answers what
   * the server heard, the reply's text, and the client-side voice-to-voice latency.
   */
  async turn(samples) {
    const from = this.messages.length;
    const speechEnd = await this.say(samples);
    const final = (m) =>
      m.type === 'transcript' && m.role === 'user' && m.transcriptType === 'final';
    // After the call has ended nothing is heard: the turn counts as unanswered.
    const heard = await this.waitFor(
      () => this.find(final, from) ?? (this.#open ? undefined : 'ended'),
      20_000,
      'the final transcript',
    )
      .then((m) => (m === 'ended' ? null : m))
      .catch(() => null);
    // Nothing recognised means no reply is coming: the turn is over.
    if (heard !== null) await this.#untilReplyStands(from);
    // A reply withdrawn because a later reading of the turn heard an emergency (its audio
    // cleared, then the caller's corrected words): the reply that follows is the turn's.
    const corrected = () => {
      const finals = this.messages.slice(from).filter((m) => typeof m === 'object' && final(m));
      return finals.length > 1 ? finals.at(-1) : undefined;
    };
    if (heard !== null && corrected() !== undefined) {
      const at = this.messages.indexOf(corrected());
      const speaks = (m, i) =>
        i > at &&
        typeof m === 'object' &&
        m.type === 'speech-update' &&
        m.role === 'assistant' &&
        m.status === 'started';
      const started = await this.waitFor(
        () => {
          const i = this.messages.findIndex(speaks);
          return i >= 0 ? i : this.#open ? undefined : -1;
        },
        30_000,
        'the reply to the corrected words',
      ).catch(() => -1);
      if (started >= 0) await this.untilAssistantStops(started);
    }
    const firstAudio = this.audioTimes.find((t) => t > speechEnd);
    const reply = this.messages
      .slice(from)
      .filter((m) => typeof m === 'object' && m.type === 'transcript' && m.role === 'assistant')
      .map((m) => m.transcript)
      .join(' ');
    const result = {
      heard: (corrected() ?? heard)?.transcript ?? '',
      reply,
      voiceToVoiceMs: firstAudio === undefined ? null : Number((firstAudio - speechEnd).toFixed(1)),
    };
    const unanswered = whyUnanswered(result, this.#open);
    return unanswered === null ? result : { ...result, unanswered };
  }

  async hangUp() {
    clearTimeout(this.#timer);
    if (this.socket.readyState === WebSocket.OPEN) this.socket.close(1000);
    await this.closed;
  }
}

/** Why a turn got no answer, for the benchmark's record (null when it got one). */
function whyUnanswered({ heard, reply, voiceToVoiceMs }, open) {
  if (heard === '')
    return open
      ? 'no final transcript within 20 s of the line'
      : 'the call ended before it heard the line';
  if (reply === '')
    return open ? 'heard, but no reply text' : 'heard, then the call ended unanswered';
  if (voiceToVoiceMs === null) return 'a reply text, but no reply audio';
  return null;
}
