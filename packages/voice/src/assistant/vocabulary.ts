import type { AssistantDto } from '@talkbooth/protocol';
import type { DomainVocabulary } from '../stt/types.js';

/**
 * What a caller of this assistant is likely to say, for its domain language model: the
 * knowledge base's questions (and the words of its answers, which callers echo), the
 * intake's trigger phrases, the end-call phrases, `transcriber.keywords` (without
 * their `:boost` suffix), and the intake's questions (whose likely answers the model
 * builder adds). Generic phrases (yes/no, numbers, greetings) are added by the
 * model builder.
 */
export function vocabularyFor(assistant: AssistantDto): DomainVocabulary {
  const model = assistant.model;
  const sentences: string[] = [];
  for (const entry of model?.knowledge ?? []) sentences.push(...entry.questions, entry.answer);
  sentences.push(...(model?.intake?.trigger ?? []));
  sentences.push(...(assistant.endCallPhrases ?? []));
  const keywords = (assistant.transcriber?.keywords ?? []).map((keyword) =>
    keyword.replace(/:[-\d.]+$/, ''),
  );
  // The questions the assistant asks, so likely answers to them are in the model too.
  const assistantQuestions = (model?.intake?.questions ?? []).map((question) => question.ask);
  return { sentences, keywords, assistantQuestions };
}
