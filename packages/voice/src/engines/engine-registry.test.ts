import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AssistantDto } from '@talkbooth/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalReplyEngine } from '../reply/local/engine.js';
import { SecondOpinionRecognizer } from '../stt/moonshine/second-opinion-recognizer.js';
import { pocketsphinxProblem } from '../stt/pocketsphinx/native.js';
import type { DomainVocabulary } from '../stt/types.js';
import { embeddedEngines } from './embedded-engines.js';
import type { EngineRegistry } from './engine-registry.js';
import type { CallStages, ModelEngine, TranscriberEngine } from './types.js';

const KNOWLEDGE = [
  {
    id: 'ferries',
    questions: ['When do the ferries leave?'],
    answer: 'Ferries leave every hour from pier two.',
  },
];

const ASSISTANT: AssistantDto = {
  firstMessage: 'Good morning, this is the ferry office.',
  model: { provider: 'local', model: 'knowledge-base', knowledge: KNOWLEDGE },
};

describe.skipIf(pocketsphinxProblem() !== null)('the engine registry', () => {
  let cacheDir: string;
  let registry: EngineRegistry;
  const built: CallStages[] = [];

  beforeAll(() => {
    cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'talkbooth-registry-'));
    registry = embeddedEngines({ modelCacheDir: cacheDir });
  });
  afterAll(async () => {
    for (const stages of built) {
      stages.vad.dispose();
      stages.denoiser.dispose();
    }
    await registry.dispose();
    fs.rmSync(cacheDir, { recursive: true, force: true });
  });

  async function stagesFor(assistant: AssistantDto): Promise<CallStages> {
    const stages = await registry.stagesFor(assistant, { credentials: () => undefined });
    built.push(stages);
    return stages;
  }

  it('runs an assistant that names no engines on the embedded ones, and says so', async () => {
    const stages = await stagesFor(ASSISTANT);
    expect(stages.providers).toEqual({
      transcriber: { requested: 'pocketsphinx', used: 'pocketsphinx' },
      model: { requested: 'local', used: 'local' },
      voice: { requested: 'espeak', used: 'espeak', voiceId: 'en-us' },
    });
    expect(stages.reply).toBeInstanceOf(LocalReplyEngine);
    expect(stages.synthesizer.sampleRate).toBeGreaterThan(0);
    expect(stages.fallbackReply()).toBeInstanceOf(LocalReplyEngine);
    // Pocketsphinx hears, with Moonshine's second opinion on what it doubts.
    expect(stages.recognizer).toBeInstanceOf(SecondOpinionRecognizer);
    expect(stages.recognizer.provider).toBe('pocketsphinx');
  });

  it('runs Moonshine for an assistant that names it, and checks its model files', async () => {
    const stages = await stagesFor({ ...ASSISTANT, transcriber: { provider: 'moonshine' } });
    expect(stages.providers.transcriber).toEqual({ requested: 'moonshine', used: 'moonshine' });
    expect(stages.recognizer.provider).toBe('moonshine');
    // A moment of silence: no words, and no error from either recogniser.
    const stream = stages.recognizer.open();
    for (let i = 0; i < 10; i++) stream.push(new Int16Array(320));
    expect(await stream.finish()).toMatchObject({ text: '' });
    await expect(registry.check()).resolves.toBe('ok');
  }, 30_000);

  it('falls back from engines it does not have, naming what ran instead and why', async () => {
    const stages = await stagesFor({
      ...ASSISTANT,
      transcriber: { provider: 'deepgram' },
      voice: { provider: '11labs', voiceId: 'rachel' },
      model: { provider: 'anthropic', model: 'claude' },
    });
    expect(stages.providers.transcriber).toEqual({
      requested: 'deepgram',
      used: 'pocketsphinx',
      reason: expect.stringMatching(
        /deepgram is not a transcriber .*has pocketsphinx, moonshine.*ran instead/,
      ),
    });
    // The hosted voice's id means nothing to eSpeak: the default voice speaks.
    expect(stages.providers.voice).toMatchObject({ requested: '11labs', used: 'espeak' });
    expect(stages.voiceId).toBe('en-us');
    expect(stages.providers.model).toEqual({
      requested: 'anthropic',
      used: 'local',
      reason: 'model provider anthropic is not supported here',
    });
  });

  it('runs a registered engine for the assistants that name it, without other code knowing it', async () => {
    const heard: DomainVocabulary[] = [];
    const embedded = registry.chooseSpeech(ASSISTANT).transcriber;
    const wrapped: TranscriberEngine = {
      name: 'talkscriber',
      recognizer: (vocabulary) => {
        heard.push(vocabulary);
        return embedded.recognizer(vocabulary);
      },
    };
    const polite: ModelEngine = {
      name: 'groq',
      create: (assistant) => ({
        engine: new LocalReplyEngine({ assistant: { ...assistant, firstMessage: 'Hello there.' } }),
      }),
    };
    registry.addTranscriber(wrapped).addModel(polite);
    const stages = await stagesFor({
      ...ASSISTANT,
      transcriber: { provider: 'talkscriber' },
      model: { provider: 'groq', model: 'llama', knowledge: KNOWLEDGE },
    });
    expect(heard).toHaveLength(1);
    expect(heard[0]?.sentences.join(' ')).toContain('Ferries leave every hour');
    expect(stages.providers.transcriber).toEqual({
      requested: 'talkscriber',
      used: 'talkscriber',
    });
    expect(stages.reply.greeting()).toBe('Hello there.');
  });

  it('falls back to the local model, with its reason, when a registered model cannot run', async () => {
    registry.addModel({
      name: 'together-ai',
      create: () => ({ unavailable: 'no key for together-ai' }),
    });
    const stages = await stagesFor({
      ...ASSISTANT,
      model: { provider: 'together-ai', model: 'x' },
    });
    expect(stages.reply).toBeInstanceOf(LocalReplyEngine);
    expect(stages.providers.model).toEqual({
      requested: 'together-ai',
      used: 'local',
      reason: 'no key for together-ai',
    });
  });

  it('is not ready while any engine fails its check, and says which problem', async () => {
    await expect(registry.check()).resolves.toBe('ok');
    registry.addTranscriber({
      name: 'broken',
      recognizer: () => Promise.reject(new Error('unused')),
      check: () => Promise.reject(new Error('the broken model is not installed')),
    });
    await expect(registry.check()).rejects.toThrow('the broken model is not installed');
  });
});
