/**
 * The AudioWorkletGlobalScope, which TypeScript's DOM library does not describe. Only the
 * worklet modules (src/worklets/*-worklet.ts) may use these: they do not exist on the main
 * thread. The worklet modules check `typeof registerProcessor` before touching any of them,
 * so that their pure classes can be imported by tests.
 */

declare global {
  /** The rendering rate of the AudioContext that runs the worklet. */
  const sampleRate: number;
  /** The context's time (seconds) of the block being processed. */
  const currentTime: number;
  /** The frame number of the block being processed. */
  const currentFrame: number;

  abstract class AudioWorkletProcessor {
    constructor(options?: AudioWorkletNodeOptions);
    readonly port: MessagePort;
    abstract process(
      inputs: Float32Array[][],
      outputs: Float32Array[][],
      parameters: Record<string, Float32Array>,
    ): boolean;
  }

  function registerProcessor(
    name: string,
    processorCtor: new (options: AudioWorkletNodeOptions) => AudioWorkletProcessor,
  ): void;
}

export {};
