/**
 * The eSpeak NG worker thread, as source text run with `new Worker(source, { eval: true })`.
 * A string rather than a file so the same code runs from `src/` under Vitest and from
 * `dist/` in production (a worker file would have to exist as plain JavaScript in both).
 *
 * eSpeak's synthesis call is synchronous: it calls back with each ~100 ms buffer before it
 * returns. Inside the worker every callback posts its buffer to the main thread at once,
 * so chunks reach the caller while eSpeak is still speaking, and the main thread's event
 * loop (other calls' audio) is never blocked by synthesis. The callback's return value
 * tells eSpeak to stop: it reads a shared abort word the main thread writes.
 *
 * Messages in:  { type: 'synth', id, text, voice, fallbackVoice, rate }  (text is SSML-escaped)
 * Messages out: { type: 'ready', voices, variants } | { type: 'init-error', message }
 *               { type: 'voice', id, ok } | { type: 'chunk', id, samples }
 *               { type: 'end', id, aborted } | { type: 'error', id, message }
 * workerData:   { moduleUrl, control }  (control: Int32Array on a SharedArrayBuffer;
 *               control[0] === id asks job `id` to stop)
 */
export const ESPEAK_WORKER_SOURCE = String.raw`
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const control = workerData.control;

function listVariants(module) {
  try {
    return module.FS.readdir('/usr/share/espeak-ng-data/voices/!v').filter((name) => name !== '.' && name !== '..');
  } catch (error) {
    return [];
  }
}

async function main() {
  let engine;
  let module;
  let currentVoice;
  try {
    const imported = await import(workerData.moduleUrl);
    module = await imported.default();
    engine = new module.eSpeakNGWorker();
    // Warm the JIT up so the first real sentence starts as fast as the later ones.
    engine.set_voice('en-us');
    engine.synthesize('Ready.', () => false);
    currentVoice = undefined;
    const voices = engine.list_voices().map((voice) => ({
      identifier: voice.identifier,
      name: voice.name,
      languages: voice.languages.map((language) => ({ name: language.name, priority: language.priority })),
    }));
    parentPort.postMessage({ type: 'ready', voices, variants: listVariants(module) });
  } catch (error) {
    parentPort.postMessage({ type: 'init-error', message: String((error && error.stack) || error) });
    return;
  }

  parentPort.on('message', (message) => {
    if (!message || message.type !== 'synth') return;
    const id = message.id;
    try {
      // Loading a voice costs milliseconds: only when it changes.
      let ok = true;
      if (message.voice !== currentVoice) {
        ok = engine.set_voice(message.voice) === 0;
        currentVoice = message.voice;
        if (!ok) {
          engine.set_voice(message.fallbackVoice);
          currentVoice = undefined;
        }
      }
      parentPort.postMessage({ type: 'voice', id, ok });
      engine.set_rate(message.rate);
      let aborted = Atomics.load(control, 0) === id;
      if (!aborted) {
        engine.synthesize(message.text, (samples) => {
          if (Atomics.load(control, 0) === id) {
            aborted = true;
            return true;
          }
          if (samples && samples.length > 0) {
            parentPort.postMessage({ type: 'chunk', id, samples }, [samples.buffer]);
          }
          return false;
        });
      }
      parentPort.postMessage({ type: 'end', id, aborted });
    } catch (error) {
      parentPort.postMessage({ type: 'error', id, message: String((error && error.stack) || error) });
    }
  });
}

main();
`;
