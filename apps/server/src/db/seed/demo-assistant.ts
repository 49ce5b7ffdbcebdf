import demo from './demo-clinic.json' with { type: 'json' };

/** The demo content as shipped (a copy of the team's fixture). */
export const demoContent = demo;

/**
 * The demo clinic as an assistant in the platform's field names. The knowledge base and the
 * intake questions ride in `model`, where the local reply engine reads them; the embedded
 * engines are the providers.
 */
export function demoAssistantDefinition(): Record<string, unknown> {
  const { assistant, knowledgeBase, intake } = demo;
  return {
    name: assistant.name,
    firstMessage: assistant.firstMessage,
    endCallMessage: assistant.endCallMessage,
    endCallPhrases: assistant.endCallPhrases,
    silenceTimeoutSeconds: assistant.silenceTimeoutSeconds,
    maxDurationSeconds: assistant.maxDurationSeconds,
    transcriber: { provider: 'pocketsphinx', model: 'en-us', language: 'en' },
    model: {
      provider: 'local',
      model: 'knowledge-base',
      messages: [{ role: 'system', content: assistant.systemPrompt }],
      knowledge: knowledgeBase,
      intake,
    },
    voice: { provider: 'espeak', voiceId: 'en-us' },
    recordingEnabled: false,
    endCallFunctionEnabled: true,
    metadata: { seed: 'demo-clinic' },
  };
}
