import { CALLER_SAMPLE_RATE, concatInt16, encodeWav, mix, resample } from '@talkbooth/voice';

/**
 * A call's audio for `recordingEnabled`: the caller's frames as they arrive, and the
 * assistant's audio placed where it was sent, mixed to one 16 kHz mono WAV at the end
 * (stored in the database, so that any server process can serve it).
 */
export class CallRecording {
  private readonly caller: Int16Array[] = [];
  private callerSamples = 0;
  private readonly assistant: { at: number; samples: Int16Array }[] = [];
  private assistantCursor = 0;

  constructor(private readonly assistantRate: number) {}

  addCaller(frame: Int16Array): void {
    this.caller.push(frame);
    this.callerSamples += frame.length;
  }

  /** Assistant audio as sent; it plays from where the caller's timeline is now. */
  addAssistant(chunk: Int16Array): void {
    const at = Math.max(
      this.assistantCursor,
      Math.round((this.callerSamples * this.assistantRate) / CALLER_SAMPLE_RATE),
    );
    this.assistant.push({ at, samples: chunk });
    this.assistantCursor = at + chunk.length;
  }

  /** The call so far as one 16 kHz mono WAV file's bytes. */
  async wav(): Promise<Buffer> {
    const voice = new Int16Array(this.assistantCursor);
    for (const { at, samples } of this.assistant) voice.set(samples, at);
    const voice16k = await resample(voice, this.assistantRate, CALLER_SAMPLE_RATE);
    const mixed = mix(concatInt16(this.caller), voice16k, { gainDb: -3 });
    return encodeWav({ samples: mixed, sampleRate: CALLER_SAMPLE_RATE });
  }
}
