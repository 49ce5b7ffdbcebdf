import { describe, expect, it } from 'vitest';
import { effectiveAssistant } from './effective-assistant.js';
import { vocabularyFor } from './vocabulary.js';

describe('effectiveAssistant', () => {
  it('merges overrides into the stored assistant and splits off the variables', () => {
    const base = {
      name: 'Desk',
      firstMessage: 'Hello {{name}}',
      transcriber: { provider: 'pocketsphinx' as const, language: 'en', keywords: ['clinic'] },
      recordingEnabled: true,
    };
    const { assistant, variableValues } = effectiveAssistant(base, {
      transcriber: { provider: 'deepgram', model: 'nova-2' },
      recordingEnabled: false,
      variableValues: { name: 'Sam' },
    });
    expect(assistant).toEqual({
      name: 'Desk',
      firstMessage: 'Hello {{name}}',
      transcriber: { provider: 'deepgram', model: 'nova-2', language: 'en', keywords: ['clinic'] },
      recordingEnabled: false,
    });
    expect(variableValues).toEqual({ name: 'Sam' });
    expect(base.transcriber.provider).toBe('pocketsphinx');
  });
});

describe('vocabularyFor', () => {
  it('collects the knowledge base, intake triggers, end-call phrases and keywords', () => {
    const vocabulary = vocabularyFor({
      endCallPhrases: ['goodbye'],
      transcriber: { provider: 'pocketsphinx', keywords: ['penicillin:2', 'riverside'] },
      model: {
        provider: 'local',
        model: 'kb',
        knowledge: [{ id: 'hours', questions: ['When are you open?'], answer: 'Weekdays.' }],
        intake: { trigger: ['take a brief'], questions: [{ id: 'reason', ask: 'Why?' }] },
      },
    });
    expect(vocabulary).toEqual({
      sentences: ['When are you open?', 'Weekdays.', 'take a brief', 'goodbye'],
      keywords: ['penicillin', 'riverside'],
      assistantQuestions: ['Why?'],
    });
  });
});
