import type { ClientMessage } from '@talkbooth/protocol';
import { FRAME_MS } from '../audio/format.js';
import { QuietGate } from '../denoise/quiet-gate.js';
import { cleansOffThread, type AnyNoiseSuppressor } from '../denoise/types.js';
import { SentenceChunker } from '../reply/sentences.js';
import type { ChatMessage, ReplyEngine } from '../reply/types.js';
import type {
  ChannelEstimate,
  RecognitionModel,
  RecognitionWaits,
  RecognitionResult,
  RecognitionStream,
  SpeechRecognizer,
} from '../stt/types.js';
import type { SpeechSynthesizer } from '../tts/types.js';
import { isRecognizerLost } from '../stt/recognizer-lost.js';
import type { VoiceActivityDetector } from '../vad/types.js';
import { AudioOutput } from './audio-output.js';
import { EchoGuard } from './echo-guard.js';
import { NoiseFloor } from './noise-floor.js';
import { rmsDbfs as levelDb } from '../audio/pcm.js';
import { SpokenText } from './spoken-text.js';
import { chosenReading } from './readings.js';
import { carriesOn, looksComplete, TurnDetector } from './turn-detector.js';
import type { CallSessionListener, EndedReason, RecordMessage, TurnMetrics } from './types.js';

export interface CallSessionStages {
  recognizer: SpeechRecognizer;
  vad: VoiceActivityDetector;
  /** On this thread, or off it (its frames then come back later, in order). */
  denoiser?: AnyNoiseSuppressor;
  synthesizer: SpeechSynthesizer;
  /** The synthesiser's voice for this assistant. */
  voice: string;
  reply: ReplyEngine;
  /** Takes over when `reply` fails mid-call (a hosted model that stops answering). */
  fallbackReply?: () => ReplyEngine;
}

export interface CallSessionSettings {
  /** The system prompt, first in the conversation the reply engine sees. */
  systemPrompt?: string;
  /** End the call after this long with nobody speaking. */
  silenceTimeoutSeconds?: number;
  maxDurationSeconds?: number;
  /** Phrases that end the call when the assistant says them. */
  endCallPhrases?: string[];
  endCallMessage?: string;
  /** Words the caller must say before the assistant stops talking; 0 stops it at once. */
  numWordsToInterruptAssistant?: number;
  /** Silence that ends the caller's turn. */
  endpointSilenceMs?: number;
  /** Silence that ends a turn already complete in words. */
  earlyEndpointSilenceMs?: number;
  /** How far ahead of playback the assistant's audio is sent. */
  playbackLeadMs?: number;
  /** How much quieter than the assistant a caller frame may be and still count as speech. */
  echoMarginDb?: number;
}

type Phase = 'idle' | 'listening' | 'thinking' | 'speaking' | 'ended';

/** Everything one assistant reply needs while it is produced and spoken. */
interface ReplyTurn {
  abort: AbortController;
  spoken: SpokenText;
  /** Samples of this reply queued so far. */
  samples: number;
  started: number;
  firstTextAt: number | null;
  firstAudioAt: number | null;
  endCall: boolean;
}

/** What the caller's turn was answered with, kept until its recheck settles. */
interface AnsweredTurn {
  /** The words answered. */
  text: string;
  /** The conversation before them. */
  before: ChatMessage[];
  /** Their message in the conversation, and in the call's record. */
  message: ChatMessage;
  record: RecordMessage;
  /** The reply to them; null while it waits for the caller to finish (see `heldReply`). */
  reply: ReplyTurn | null;
  caller: CallerTurnTiming;
}

/** The caller's turn as the turn's metrics report it. */
interface CallerTurnTiming {
  silenceMs: number;
  recognitionMs: number;
  endpointAt: number;
  model: RecognitionModel;
  waits: RecognitionWaits | undefined;
}

const now = () => performance.now();

/**
 * Quiet that tells the recogniser the caller may have finished (`RecognitionStream.pause`):
 * a turn ends after 250–500 ms of it, so a recogniser that reads at the end gets a head start.
 */
const PAUSE_MS = 100;

/**
 * The longest pause, from the end of one caller turn to the start of the next, after which
 * the next still carries on the same sentence when the assistant made no sound between
 * them (see `answerCallerTurn`). Callers pause mid-sentence for half a second or so
 * ("could you let the doctor … know about my cough"), longer than a turn's end waits.
 */
const CONTINUATION_GAP_MS = 1500;

/**
 * One live conversation: the caller's frames go through noise suppression, voice
 * activity and endpointing into the recogniser; each finished turn goes to the reply
 * engine, whose sentences are synthesised and paced out as they come. The caller can talk
 * over the assistant (barge-in), the assistant's echo cannot. The session knows nothing of
 * sockets or databases: it reports through its listener.
 */
export class CallSession {
  private phase: Phase = 'idle';
  private readonly turns: TurnDetector;
  private readonly echo: EchoGuard;
  private readonly noise = new NoiseFloor();
  private readonly quiet = new QuietGate();
  /** Frames given to an off-thread denoiser and not yet heard. */
  private cleaning = 0;
  /** The latest of them, heard in order after the ones before it. */
  private lastCleaned: Promise<void> = Promise.resolve();
  private readonly output: AudioOutput;
  private readonly history: ChatMessage[] = [];
  private readonly record: RecordMessage[] = [];
  private readonly startedAt = Date.now();
  private reply: ReplyEngine;
  private stream: RecognitionStream | null = null;
  private lastPartial = '';
  /** The reply engine failed to judge whether the caller's words make a whole turn. */
  private completeFailed = false;
  /** What the recogniser learned of this caller's channel, for their next utterance. */
  private channel: ChannelEstimate | undefined;
  /** Which model heard the caller's previous utterance (none yet: undefined). */
  private lastHeardBy: RecognitionModel | undefined;
  private framesInTurn = 0;
  private current: ReplyTurn | null = null;
  /** A reply waiting for the interrupt word count before it is cut off. */
  private pendingInterrupt = false;
  private lastActivity = now();
  private turnCount = 0;
  private silenceTimer: ReturnType<typeof setInterval> | null = null;
  private maxTimer: ReturnType<typeof setTimeout> | null = null;
  /** Replies are spoken one after another. */
  private speaking: Promise<void> = Promise.resolve();
  /** Finished utterances still being recognised, in the order they were spoken. */
  private recognizing: Promise<void> = Promise.resolve();
  /** Gives back what the recogniser readied for this call. */
  private releaseRecognizer: (() => void) | undefined;
  /** The caller's latest turn: a next one may carry on its sentence. */
  private lastCallerTurn: AnsweredTurn | null = null;
  /** When the caller's latest turn ended, and when a reply last began to sound. */
  private callerTurnEndedAt = -Infinity;
  private replySoundedAt = -Infinity;
  /** Whether the turn under way began with nothing said to the caller since their last. */
  private turnFollowsQuiet = false;
  /**
   * When the turn under way began by talking over a reply: what of it the caller heard
   * (its message in the conversation, or null for nothing). Undefined otherwise.
   */
  private turnInterrupted: ChatMessage | null | undefined;
  /**
   * The caller's latest turn, when its reply waits: the caller was already speaking on,
   * having heard nothing since, so what they say may finish its sentence.
   */
  private heldReply: CallerTurnTiming | null = null;

  constructor(
    private readonly stages: CallSessionStages,
    private readonly settings: CallSessionSettings,
    private readonly listener: CallSessionListener,
  ) {
    this.reply = stages.reply;
    this.turns = new TurnDetector({
      frameMs: FRAME_MS,
      silenceMs: settings.endpointSilenceMs ?? 500,
      earlySilenceMs: settings.earlyEndpointSilenceMs ?? 250,
    });
    this.echo = new EchoGuard({
      marginDb: settings.echoMarginDb ?? 12,
      aheadMs: (settings.playbackLeadMs ?? 200) + 50,
    });
    this.output = new AudioOutput({
      sampleRate: stages.synthesizer.sampleRate,
      leadMs: settings.playbackLeadMs ?? 200,
      send: (chunk) => listener.audio(chunk),
    });
    if (settings.systemPrompt)
      this.history.push({ role: 'system', content: settings.systemPrompt });
  }

  /** The rate of the assistant audio this session sends. */
  get outputSampleRate(): number {
    return this.output.sampleRate;
  }

  get ended(): boolean {
    return this.phase === 'ended';
  }

  /** Starts the conversation: the greeting, the timers. Call once the caller can hear. */
  start(): void {
    if (this.phase !== 'idle') return;
    this.phase = 'listening';
    this.lastActivity = now();
    // Readied while the greeting plays, so the caller's first words find it waiting.
    this.releaseRecognizer = this.stages.recognizer.reserve?.();
    const silenceMs = (this.settings.silenceTimeoutSeconds ?? 30) * 1000;
    this.silenceTimer = setInterval(() => {
      if (
        this.phase === 'listening' &&
        !this.turns.speaking &&
        now() - this.lastActivity >= silenceMs
      ) {
        void this.end('silence-timed-out');
      }
    }, 250);
    this.maxTimer = setTimeout(
      () => void this.end('exceeded-max-duration'),
      (this.settings.maxDurationSeconds ?? 600) * 1000,
    );
    const greeting = this.reply.greeting();
    if (greeting) this.say(greeting, false);
  }

  /** One 20 ms frame of the caller's microphone (16 kHz, 320 samples). */
  pushCallerAudio(frame: Int16Array): void {
    if (this.phase === 'ended') return;
    const at = now();
    const level = levelDb(frame);
    // The noise floor as of this frame, before it counts, is known now, not when the frame
    // comes back from the denoiser: the quiet gate decides on it.
    const floor = this.noise.floor();
    const loud = this.noise.loudEnough(level);
    const denoiser = this.stages.denoiser;
    if (denoiser === undefined) return this.hear(frame, at, level, loud);
    const gate = this.quiet.next(frame, level, floor, this.turns.speaking);
    if (!cleansOffThread(denoiser)) {
      if (!gate.denoise) return this.hear(gate.frame, at, level, loud);
      for (const quiet of gate.prime) denoiser.process(quiet);
      return this.hear(denoiser.process(frame), at, level, loud);
    }
    // Cleaned on a denoise thread: heard when it comes back, in order, as of when it came.
    // A quiet frame the gate let past waits for the frames still being cleaned before it.
    if (!gate.denoise) {
      if (this.cleaning === 0) return this.hear(gate.frame, at, level, loud);
      this.lastCleaned = this.lastCleaned.then(() => this.hear(gate.frame, at, level, loud));
      return;
    }
    for (const quiet of gate.prime) void denoiser.clean(quiet).catch(() => undefined);
    this.cleaning += 1;
    // It fails only a frame given after it was disposed (the call is over by then).
    this.lastCleaned = denoiser.clean(frame).then(
      (clean) => {
        this.cleaning -= 1;
        this.hear(clean, at, level, loud);
      },
      () => {
        this.cleaning -= 1;
        this.hear(frame, at, level, loud);
      },
    );
  }

  /**
   * One caller frame, cleaned: voice activity, the echo guard, the turn. `loud`: it stands
   * clear of the noise floor.
   */
  private hear(clean: Int16Array, at: number, level: number, loud: boolean): void {
    if (this.phase === 'ended') return;
    try {
      this.hearFrame(clean, at, level, loud);
    } catch (error) {
      // A fault here would otherwise reach the socket's handler (or, for a frame cleaned on
      // a denoise thread, no handler at all) and end the process with every call on it:
      // this call ends, saying why.
      this.listener.message({
        type: 'error',
        error: `The caller's audio could not be heard: ${describe(error)}`,
      });
      void this.end('unknown-error');
    }
  }

  private hearFrame(clean: Int16Array, at: number, level: number, loud: boolean): void {
    const voiced = loud && this.stages.vad.isSpeech(clean);
    const speech = voiced && this.echo.allows(at, level);
    // A voice the echo guard holds back (it may be the assistant's echo) joins a turn that
    // starts right after it: then it was most likely the caller's first words. Once the
    // assistant has finished, the caller answering at once; while it still plays, the
    // caller talking over it, more softly than it at first: "is there parking near the
    // clinic" over a -7 dBFS answer had 20 of its first 24 frames held back, and was heard
    // as "your parking…" without them. Where there was echo too, a turn may start with a
    // little of it (at most `heldFrames`).
    const event = this.turns.push(clean, speech, () => this.turnLooksComplete(), voiced);

    switch (event.type) {
      case 'start':
        this.beginCallerTurn(event.frames);
        break;
      case 'frame':
        this.continueCallerTurn(event.frame, event.silenceMs);
        break;
      case 'end':
        this.finishCallerTurn(event.silenceMs);
        break;
      case 'idle':
        break;
    }
  }

  /** A JSON message from the client (already validated). */
  handleClientMessage(message: ClientMessage): void {
    if (this.phase === 'ended') return;
    switch (message.type) {
      case 'playable':
        this.start();
        break;
      case 'control':
        if (message.control === 'end-call') void this.end('customer-ended-call');
        else this.output.muted = message.control === 'mute-assistant';
        break;
      case 'say':
        this.say(message.message, message.endCallAfterSpoken === true);
        break;
      case 'add-message':
        this.history.push(message.message);
        this.addRecord(
          message.message.role === 'assistant' ? 'bot' : message.message.role,
          message.message.content,
          Date.now(),
        );
        this.sendConversation();
        if (message.message.role === 'user' && this.phase === 'listening') this.respond(null);
        break;
    }
  }

  /**
   * Ends the call (idempotent): stops listening and speaking, concludes, and reports.
   * `server-shutdown` and the caller hanging up end at once; the assistant's own endings
   * wait until its last words have played (see `say` and `respond`).
   */
  async end(reason: EndedReason): Promise<void> {
    if (this.phase === 'ended') return;
    this.phase = 'ended';
    if (this.silenceTimer !== null) clearInterval(this.silenceTimer);
    if (this.maxTimer !== null) clearTimeout(this.maxTimer);
    this.current?.abort.abort();
    this.cutShort('heard');
    this.stream?.cancel();
    this.stream = null;
    this.releaseRecognizer?.();
    this.turns.reset();
    this.output.dispose();
    this.listener.message({ type: 'status-update', status: 'ended', endedReason: reason });
    let conclusion;
    try {
      conclusion = this.reply.conclude(this.history);
    } catch {
      conclusion = { summary: '' };
    }
    this.listener.ended({ reason, conclusion, messages: [...this.record] });
  }

  // ---- the caller's turn ----------------------------------------------------------------

  private turnLooksComplete(): boolean {
    const text = this.lastPartial;
    try {
      return this.reply.isComplete?.(text) ?? looksComplete(text);
    } catch (error) {
      // Judged by the words' form alone: a fault in the engine's judgement costs no turn
      // (this runs as the caller's audio is heard). The operator hears of it once a call.
      if (!this.completeFailed) {
        this.completeFailed = true;
        this.listener.problem?.({ stage: 'complete', error: describe(error) });
      }
      return looksComplete(text);
    }
  }

  private beginCallerTurn(frames: Int16Array[]): void {
    this.lastActivity = now();
    // What the assistant just said (its question, if it asked one) tells the recogniser
    // what answer to expect.
    const last = this.history.at(-1);
    const question = last?.role === 'assistant' ? last.content : undefined;
    this.stream = this.stages.recognizer.open({
      ...(this.channel ? { channel: this.channel } : {}),
      ...(question !== undefined ? { question } : {}),
      ...(this.lastHeardBy !== undefined && this.lastHeardBy !== 'domain'
        ? { expectFallback: true }
        : {}),
    });
    for (const frame of frames) this.stream.push(frame);
    this.lastPartial = '';
    this.framesInTurn = frames.length;
    this.turnFollowsQuiet = this.replySoundedAt < this.callerTurnEndedAt;
    this.turnInterrupted = undefined;
    this.listener.message({ type: 'speech-update', role: 'user', status: 'started' });
    if (this.phase === 'speaking' || this.phase === 'thinking') {
      if ((this.settings.numWordsToInterruptAssistant ?? 0) > 0) this.pendingInterrupt = true;
      else this.bargeIn();
    }
  }

  private continueCallerTurn(frame: Int16Array, silenceMs: number): void {
    if (this.stream === null) return;
    this.stream.push(frame);
    this.framesInTurn += 1;
    this.lastActivity = now();
    if (silenceMs >= PAUSE_MS && silenceMs - FRAME_MS < PAUSE_MS)
      this.readyEarly(this.stream.pause?.(silenceMs));
    // A partial result every 100 ms is plenty for live captions.
    if (this.framesInTurn % 5 !== 0) return;
    const partial = this.stream.partial();
    if (partial === '' || partial === this.lastPartial) return;
    this.lastPartial = partial;
    this.listener.message({
      type: 'transcript',
      role: 'user',
      transcriptType: 'partial',
      transcript: partial,
    });
    if (
      this.pendingInterrupt &&
      partial.split(/\s+/).length >= (this.settings.numWordsToInterruptAssistant ?? 0)
    ) {
      this.bargeIn();
    }
  }

  /**
   * Readies the meaning of the readings the recogniser expects should the turn end at this
   * pause (`RecognitionStream.pause`), while the quiet that ends the turn goes by: the turn's
   * own preparation then finds them done (encoding a turn's readings took about 65 ms after
   * its end, half the wait between the turn's end and the reply's first text). If the
   * caller speaks on, the work is wasted; if it fails, the turn prepares them itself.
   */
  private readyEarly(readings: Promise<string[]> | void): void {
    const reply = this.reply;
    if (readings === undefined || reply.prepareReadings === undefined) return;
    readings
      .then((early) => (early.length > 0 ? reply.prepareReadings?.(early) : undefined))
      .catch(() => undefined);
  }

  private finishCallerTurn(silenceMs: number): void {
    const stream = this.stream;
    this.stream = null;
    this.pendingInterrupt = false;
    this.lastActivity = now();
    this.listener.message({ type: 'speech-update', role: 'user', status: 'stopped' });
    if (stream === null) return;
    const endpointAt = now();
    this.callerTurnEndedAt = endpointAt;
    const endedAt = Date.now() - silenceMs;
    const spokenAt = endedAt - this.framesInTurn * FRAME_MS;
    const followsQuiet = this.turnFollowsQuiet;
    const interrupted = this.turnInterrupted;
    const result = stream.finish();
    // A recogniser may finish off the event loop (Moonshine); turns are still answered in
    // the order they were spoken, and not at all once the call has ended.
    this.recognizing = this.recognizing.then(async () => {
      let heard: RecognitionResult;
      try {
        heard = await result;
      } catch (error) {
        if (this.phase !== 'ended') {
          this.listener.message({
            type: 'error',
            error: `The caller's words could not be recognised: ${describe(error)}`,
          });
          // The recogniser itself is gone (its thread crashed): end the call saying why,
          // rather than leave the caller talking to no one.
          if (isRecognizerLost(error)) await this.end('pipeline-error-transcriber-failed');
          else this.releaseHeldReply();
        }
        return;
      }
      if (this.phase === 'ended') return;
      try {
        await this.answerCallerTurn(heard, {
          silenceMs,
          endpointAt,
          spokenAt,
          endedAt,
          followsQuiet,
          interrupted,
        });
      } catch (error) {
        // A fault in answering this turn must not leave the call's later turns unanswered:
        // they wait on this chain, which would reject for good.
        if (this.ended) return;
        this.listener.message({
          type: 'error',
          error: `The caller's turn could not be answered: ${describe(error)}`,
        });
        this.releaseHeldReply();
      }
    });
  }

  private async answerCallerTurn(
    result: RecognitionResult,
    turn: {
      silenceMs: number;
      endpointAt: number;
      spokenAt: number;
      endedAt: number;
      /** The turn began before the assistant made a sound after the caller's last. */
      followsQuiet: boolean;
      /** What the caller heard of the reply this turn talked over (see `turnInterrupted`). */
      interrupted: ChatMessage | null | undefined;
    },
  ): Promise<void> {
    const recognitionMs = now() - turn.endpointAt;
    if (result.channel) this.channel = result.channel;
    if (result.text !== '') this.lastHeardBy = result.model;
    const heard = await chosenReading(result, this.reply, [...this.history], (error) =>
      this.listener.problem?.({ stage: 'choose', error: describe(error) }),
    );
    if (this.phase === 'ended') return;
    // Nothing said after all (a cough): the turn the caller went on from is answered now.
    if (heard === '') return this.releaseHeldReply();

    // The caller paused mid-sentence and went on before the reply made a sound (the pause
    // was long enough to end the turn): the two are one turn, answered as such. The reply
    // to the first half is taken back, and the first half's words are joined to these. A
    // caller who talks over a reply they have begun to hear says something new.
    const carried = turn.followsQuiet
      ? this.carriedOn(turn.spokenAt)
      : turn.interrupted !== undefined && carriesOn(heard)
        ? this.carriedOver(turn.spokenAt, turn.interrupted)
        : null;
    const text = carried === null ? heard : `${carried.text} ${heard}`;
    const before = carried === null ? [...this.history] : carried.before;
    const message: ChatMessage = { role: 'user', content: text };
    this.listener.message({
      type: 'transcript',
      role: 'user',
      transcriptType: 'final',
      transcript: text,
    });
    // As when the caller talks over it: any of its audio the client holds is dropped.
    if (
      carried !== null &&
      carried.reply !== null &&
      this.current === carried.reply &&
      this.cutShort('withdrawn')
    ) {
      this.listener.message({ type: 'clear' });
    }
    const record = this.keepCallerWords(message, turn, carried);
    this.sendConversation();
    const caller = {
      silenceMs: turn.silenceMs,
      recognitionMs,
      endpointAt: turn.endpointAt,
      model: result.model,
      waits: result.waits,
    };
    // The caller already speaks on, having heard nothing since this turn: its reply waits
    // for what they say, which may finish the sentence (then both are answered as one).
    const holding = this.stream !== null && this.turnFollowsQuiet;
    const reply = holding ? null : this.respond(caller);
    this.heldReply = holding ? caller : null;
    this.lastCallerTurn = { text, before, message, record, reply, caller };
    // Not awaited: the caller's next turn is answered without waiting for it. The reading
    // waits behind every reading an answer waits for (its urgency is `later`), so with
    // several calls talking it can take seconds; while it was awaited here, a turn said
    // meanwhile went unanswered until it came (a benchmark call with five at once lost its
    // last three turns). An emergency it hears is still answered, after whatever was said
    // since (see `recheckCallerTurn`).
    // The whole-turn reading is of these words alone: a carried-on sentence's first half
    // goes before it, as before the words heard at the pause.
    const recheck =
      carried === null
        ? result.recheck
        : result.recheck?.then((late) => late.map((reading) => `${carried.text} ${reading}`));
    if (recheck)
      this.recheckCallerTurn(recheck, {
        text,
        before,
        message,
        record,
        reply,
        caller,
      }).catch((error: unknown) => {
        // The turn was answered from the first reading; the caller loses only the check.
        this.listener.problem?.({ stage: 'recheck', error: describe(error) });
      });
  }

  /**
   * Puts the caller's words in the conversation and the call's record: as a turn of their
   * own, or in place of the turn they carry on (`carried`), which they include. Returns
   * their record.
   */
  private keepCallerWords(
    message: ChatMessage,
    turn: { spokenAt: number; endedAt: number },
    carried: AnsweredTurn | null,
  ): RecordMessage {
    if (carried === null) {
      this.history.push(message);
      this.addRecord('user', message.content, turn.spokenAt, turn.endedAt);
      return this.record.at(-1) as RecordMessage;
    }
    this.history[this.history.length - 1] = message;
    const record = {
      ...carried.record,
      message: message.content,
      endTime: Math.round(turn.endedAt),
    };
    const at = this.record.indexOf(carried.record);
    if (at >= 0) this.record[at] = record;
    else this.record.push(record);
    this.listener.conversation([...this.record]);
    return record;
  }

  /**
   * The caller's previous turn, when a turn that began at `spokenAt`, before the assistant
   * made a sound (`followsQuiet`), carries on its sentence: the conversation still ends on
   * the previous turn's words (no reply to them was heard), and the caller paused for at
   * most {@link CONTINUATION_GAP_MS}.
   */
  private carriedOn(spokenAt: number): AnsweredTurn | null {
    const last = this.lastCallerTurn;
    if (last === null || this.history.at(-1) !== last.message) return null;
    // A turn whose reply waited for this one: the caller has had no answer to it at all.
    if (this.heldReply !== null) return last;
    return spokenAt - last.record.endTime <= CONTINUATION_GAP_MS ? last : null;
  }

  /**
   * The caller's previous turn, when a turn that began at `spokenAt` by talking over its
   * reply carries on its sentence (the caller checks `carriesOn`: "… for a flu shot"),
   * after a pause of at most {@link CONTINUATION_GAP_MS}: the reply began as the
   * caller went on, and what they heard of it (`heard`) is taken out of the conversation.
   */
  private carriedOver(spokenAt: number, heard: ChatMessage | null): AnsweredTurn | null {
    const last = this.lastCallerTurn;
    if (last === null || spokenAt - last.record.endTime > CONTINUATION_GAP_MS) return null;
    const ends = heard === null ? [last.message] : [last.message, heard];
    if (ends.some((m, i) => this.history.at(i - ends.length) !== m)) return null;
    if (heard !== null) this.history.pop();
    return last;
  }

  /** Answers the caller's turn whose reply waited (`heldReply`), if one did. */
  private releaseHeldReply(): void {
    if (this.heldReply !== null) this.respond(this.heldReply);
  }

  /**
   * The second recogniser's reading of the whole turn, which settles after the turn was
   * answered from its reading at the caller's pause: an emergency heard only in it cuts
   * the reply short, and the turn is answered again as what it was. The caller's words are
   * corrected where nothing was said since; otherwise they follow as a turn of their own.
   */
  private async recheckCallerTurn(recheck: Promise<string[]>, turn: AnsweredTurn): Promise<void> {
    const late = await recheck;
    if (late.length === 0 || this.phase === 'ended' || !this.reply.missedEmergency) return;
    const unanswered = this.history.at(-1) === turn.message;
    const index = this.reply.missedEmergency(
      turn.text,
      late,
      unanswered ? turn.before : this.history,
    );
    const text = late[index];
    if (text === undefined) return;
    this.listener.message({
      type: 'transcript',
      role: 'user',
      transcriptType: 'final',
      transcript: text,
    });
    if (turn.reply !== null && this.current === turn.reply && this.cutShort('withdrawn')) {
      this.listener.message({ type: 'clear' });
    }
    if (unanswered && this.history.at(-1) === turn.message) {
      this.history[this.history.length - 1] = { role: 'user', content: text };
      const at = this.record.indexOf(turn.record);
      if (at >= 0) this.record[at] = { ...turn.record, message: text };
      this.listener.conversation([...this.record]);
    } else {
      this.history.push({ role: 'user', content: text });
      this.addRecord('user', text, turn.record.time, turn.record.endTime);
    }
    this.sendConversation();
    this.respond(turn.caller);
  }

  // ---- the assistant's turn -------------------------------------------------------------

  /** Speaks a fixed text (greeting, `say`), then ends the call if asked. */
  private say(text: string, endCallAfter: boolean): void {
    const turn = this.newReplyTurn();
    turn.endCall = endCallAfter;
    this.speaking = this.speaking.then(async () => {
      this.current = turn;
      this.phase = 'speaking';
      try {
        await this.speakSentence(turn, text);
      } catch (error) {
        // As a reply the voice fails to speak: the caller would hear nothing more, and
        // every later reply waits on this chain.
        if (turn.abort.signal.aborted || this.ended) return;
        this.listener.message({
          type: 'error',
          error: `The assistant could not speak: ${describe(error)}`,
        });
        await this.end('assistant-error');
        return;
      }
      await this.finishReply(turn, endCallAfter ? 'assistant-ended-call' : null);
    });
  }

  /** Produces and speaks the reply to the conversation so far. */
  private respond(caller: CallerTurnTiming | null): ReplyTurn {
    // Whatever waited is answered by this reply, which sees the whole conversation.
    this.heldReply = null;
    const turn = this.newReplyTurn();
    this.turnCount += 1;
    const turnNumber = this.turnCount;
    this.phase = 'thinking';
    this.current = turn;
    this.speaking = this.speaking.then(async () => {
      if (turn.abort.signal.aborted) return;
      const chunker = new SentenceChunker();
      let queue: Promise<void> = Promise.resolve();
      const speak = (sentence: string) => {
        queue = queue.then(() => this.speakSentence(turn, sentence));
      };
      try {
        for await (const event of this.replyEvents(turn)) {
          if (event.type === 'end-call') {
            turn.endCall = true;
            continue;
          }
          turn.firstTextAt ??= now();
          this.listener.message({ type: 'model-output', output: event.text });
          for (const sentence of chunker.push(event.text)) speak(sentence);
        }
        for (const sentence of chunker.flush()) speak(sentence);
        await queue;
      } catch (error) {
        if (turn.abort.signal.aborted) return;
        this.listener.message({
          type: 'error',
          error: `The assistant could not answer: ${describe(error)}`,
        });
        await this.end('assistant-error');
        return;
      }
      if (caller !== null) this.reportMetrics(turnNumber, caller, turn);
      const said = turn.spoken.full.toLowerCase();
      const phrase = (this.settings.endCallPhrases ?? []).some(
        (p) => p.trim() !== '' && said.includes(p.toLowerCase()),
      );
      await this.finishReply(
        turn,
        phrase ? 'assistant-said-end-call-phrase' : turn.endCall ? 'assistant-ended-call' : null,
      );
    });
    return turn;
  }

  /** The reply engine's events, switching to the fallback engine if the first one fails. */
  private async *replyEvents(turn: ReplyTurn) {
    try {
      yield* this.reply.reply(this.history, turn.abort.signal);
    } catch (error) {
      const fallback = this.stages.fallbackReply;
      if (turn.abort.signal.aborted || fallback === undefined || turn.firstTextAt !== null)
        throw error;
      const from = this.reply.provider;
      this.reply = fallback();
      this.listener.providerChanged?.({
        stage: 'model',
        from,
        to: this.reply.provider,
        reason: describe(error),
      });
      yield* this.reply.reply(this.history, turn.abort.signal);
    }
  }

  private newReplyTurn(): ReplyTurn {
    return {
      abort: new AbortController(),
      spoken: new SpokenText(),
      samples: 0,
      started: now(),
      firstTextAt: null,
      firstAudioAt: null,
      endCall: false,
    };
  }

  private async speakSentence(turn: ReplyTurn, sentence: string): Promise<void> {
    if (turn.abort.signal.aborted || this.ended) return;
    turn.spoken.begin(sentence, turn.samples);
    for await (const chunk of this.stages.synthesizer.synthesize(sentence, {
      voice: this.stages.voice,
      signal: turn.abort.signal,
    })) {
      if (turn.abort.signal.aborted) return;
      if (turn.firstAudioAt === null) {
        turn.firstAudioAt = now();
        this.replySoundedAt = turn.firstAudioAt;
        this.phase = 'speaking';
        this.listener.message({ type: 'speech-update', role: 'assistant', status: 'started' });
      }
      this.noteEcho(chunk);
      this.output.enqueue(chunk);
      turn.samples += chunk.length;
      turn.spoken.extend(turn.samples);
    }
    this.listener.message({
      type: 'transcript',
      role: 'assistant',
      transcriptType: 'final',
      transcript: sentence,
    });
  }

  /** Records the echo guard's view of a chunk: its level, 20 ms at a time, when it will play. */
  private noteEcho(chunk: Int16Array): void {
    const rate = this.output.sampleRate;
    const step = Math.round((rate * FRAME_MS) / 1000);
    const queuedMs = ((this.output.totalSamples() - this.output.playedSamples()) * 1000) / rate;
    const base = now() + queuedMs;
    for (let offset = 0; offset < chunk.length; offset += step) {
      this.echo.noteAssistant(
        base + (offset * 1000) / rate,
        levelDb(chunk.subarray(offset, offset + step)),
      );
    }
  }

  /** After a reply was fully spoken: record it, and end the call if it said so. */
  private async finishReply(turn: ReplyTurn, endReason: EndedReason | null): Promise<void> {
    if (turn.abort.signal.aborted || this.ended) return;
    await this.output.drained();
    if (turn.abort.signal.aborted || this.ended) return;
    this.current = null;
    const text = turn.spoken.full;
    if (text !== '') {
      this.history.push({ role: 'assistant', content: text });
      this.addRecord(
        'bot',
        text,
        Date.now() - (turn.samples / this.output.sampleRate) * 1000,
        Date.now(),
      );
      this.listener.message({ type: 'speech-update', role: 'assistant', status: 'stopped' });
      this.sendConversation();
    }
    this.lastActivity = now();
    this.phase = 'listening';
    if (endReason !== null) {
      this.listener.message({ type: 'hang' });
      await this.end(endReason);
    }
  }

  /** The caller talks over the assistant: stop speaking at once and keep only what was heard. */
  private bargeIn(): void {
    this.pendingInterrupt = false;
    if (this.current === null) return;
    const said = this.history.length;
    this.cutShort('heard');
    // What the caller heard, should their words turn out to carry on their last sentence.
    this.turnInterrupted = this.history.length > said ? (this.history.at(-1) ?? null) : null;
    this.listener.message({ type: 'clear' });
    this.phase = 'listening';
  }

  /**
   * Stops the current reply at once and drops its audio not yet played. The words the caller
   * heard stay in the call's record, and in the conversation the reply engine sees unless the
   * reply is `withdrawn`: it answered words the caller did not say (see `recheckCallerTurn`),
   * and the conversation goes on from the corrected words instead. Returns whether any of its
   * audio had gone out.
   */
  private cutShort(kept: 'heard' | 'withdrawn'): boolean {
    const turn = this.current;
    if (turn === null) return false;
    this.current = null;
    turn.abort.abort();
    const played = this.output.clear();
    this.echo.dropAfter(now());
    const heard = turn.spoken.heardBy(played);
    const audible = turn.firstAudioAt !== null;
    if (audible) {
      this.listener.message({ type: 'speech-update', role: 'assistant', status: 'stopped' });
    }
    if (heard !== '') {
      if (kept === 'heard') this.history.push({ role: 'assistant', content: heard });
      this.addRecord(
        'bot',
        heard,
        Date.now() - (played / this.output.sampleRate) * 1000,
        Date.now(),
      );
      if (kept === 'heard') this.sendConversation();
    }
    return audible;
  }

  // ---- the record -----------------------------------------------------------------------

  private addRecord(
    role: RecordMessage['role'],
    message: string,
    time: number,
    endTime = time,
  ): void {
    this.record.push({
      role,
      message,
      time: Math.round(time),
      endTime: Math.round(endTime),
      secondsFromStart: Math.max(0, Math.round((time - this.startedAt) / 10) / 100),
    });
    this.listener.conversation([...this.record]);
  }

  private sendConversation(): void {
    this.listener.message({ type: 'conversation-update', conversation: [...this.history] });
  }

  private reportMetrics(turnNumber: number, caller: CallerTurnTiming, turn: ReplyTurn): void {
    const since = (at: number | null) => (at === null ? null : Math.round(at - caller.endpointAt));
    const firstAudioMs = since(turn.firstAudioAt);
    const metrics: TurnMetrics = {
      turn: turnNumber,
      endOfSpeechDelayMs: caller.silenceMs,
      recognitionMs: Math.round(caller.recognitionMs * 10) / 10,
      firstTextMs: since(turn.firstTextAt),
      firstAudioMs,
      voiceToVoiceMs: firstAudioMs === null ? null : caller.silenceMs + firstAudioMs,
      recognitionModel: caller.model,
      ...recognitionWaits(caller.waits),
    };
    this.listener.metrics(metrics);
  }
}

/** The parts of the recognition wait a turn's metrics report, each where it was measured (ms, one decimal). */
function recognitionWaits(
  waits: RecognitionWaits | undefined,
): Pick<TurnMetrics, 'recognitionQueuedMs' | 'recognitionDecodingMs' | 'secondOpinionWaitMs'> {
  const ms = (value: number) => Math.round(value * 10) / 10;
  return {
    ...(waits?.queuedMs === undefined ? {} : { recognitionQueuedMs: ms(waits.queuedMs) }),
    ...(waits?.decodingMs === undefined ? {} : { recognitionDecodingMs: ms(waits.decodingMs) }),
    ...(waits?.secondOpinionMs === undefined
      ? {}
      : { secondOpinionWaitMs: ms(waits.secondOpinionMs) }),
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
