import { assistantDtoSchema } from '@talkbooth/protocol';
import type { Assistant, AssistantPatch } from '@talkbooth/protocol';

/**
 * The assistant editor's form: what the fields hold (a draft made from the stored assistant),
 * the JSON Merge Patch a save sends (only what changed), the local checks, and where an error
 * about a path of the assistant (`model.knowledge.2.answer`, the server's `fields` keys and
 * zod's issue paths alike) shows in the form.
 *
 * The knowledge base and the brief ride in `model` (`model.knowledge`, `model.intake`), where
 * the embedded reply engine reads them (see the demo assistant in the server's seed).
 */

/** One knowledge-base entry as edited; `key` is the form's own, stable across moves. */
export interface KnowledgeDraft {
  key: string;
  /** The entry's short name (`hours`); made from its first question when left empty. */
  id: string;
  /** One question a line. */
  questions: string;
  answer: string;
  urgent: boolean;
  /** Fields of the entry the form does not edit (kept as they are). */
  extra: Record<string, unknown>;
}

/** One question of the pre-visit brief as edited. */
export interface IntakeQuestionDraft {
  key: string;
  /** The brief's label for the answer (`reason`); made from the question when left empty. */
  id: string;
  ask: string;
  extra: Record<string, unknown>;
}

/** The webhook secret is write-only: the form never has the stored value. */
export type SecretDraft =
  { mode: 'keep' } | { mode: 'replace'; value: string } | { mode: 'remove' };

export interface AssistantDraft {
  name: string;
  firstMessage: string;
  knowledge: KnowledgeDraft[];
  intakeQuestions: IntakeQuestionDraft[];
  /** Phrases that start the brief, one a line. */
  intakeTrigger: string;
  intakeClosing: string;
  voiceProvider: string;
  voiceId: string;
  maxDurationSeconds: string;
  silenceTimeoutSeconds: string;
  serverUrl: string;
  secret: SecretDraft;
  serverMessages: string[];
}

/** The server messages the console offers (the ones this server sends). */
export const SERVER_MESSAGE_CHOICES = [
  { type: 'status-update', label: 'Status updates (the call started, ended…)' },
  { type: 'end-of-call-report', label: 'End-of-call report (summary, transcript, brief)' },
  { type: 'transcript', label: 'Transcript lines as they are spoken' },
] as const;

/** What the server sends when an assistant has no `serverMessages` (the hosted defaults). */
export const DEFAULT_SERVER_MESSAGES: readonly string[] = [
  'conversation-update',
  'end-of-call-report',
  'function-call',
  'hang',
  'speech-update',
  'status-update',
  'tool-calls',
  'transfer-destination-request',
  'user-interrupted',
];

/** `transcript` may also be asked for as final lines only. */
export const FINAL_TRANSCRIPT = 'transcript[transcriptType="final"]';

/** The embedded engines, as on the demo assistant. */
export const EMBEDDED_MODEL = { provider: 'local', model: 'knowledge-base' } as const;
export const EMBEDDED_VOICE = { provider: 'espeak', voiceId: 'en-us' } as const;
export const EMBEDDED_TRANSCRIBER = {
  provider: 'pocketsphinx',
  model: 'en-us',
  language: 'en',
} as const;

/** The limits the schema allows, for the fields' hints. */
export const LIMITS = {
  maxDurationSeconds: { min: 10, max: 43_200 },
  silenceTimeoutSeconds: { min: 10, max: 3600 },
} as const;

let keys = 0;
/** A fresh key for a new row of the form. */
export const newKey = (): string => `row-${++keys}`;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function without(value: Record<string, unknown>, names: readonly string[]) {
  return Object.fromEntries(Object.entries(value).filter(([name]) => !names.includes(name)));
}

const lines = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

export function emptyKnowledgeEntry(): KnowledgeDraft {
  return { key: newKey(), id: '', questions: '', answer: '', urgent: false, extra: {} };
}

export function emptyIntakeQuestion(): IntakeQuestionDraft {
  return { key: newKey(), id: '', ask: '', extra: {} };
}

/** The form's fields for a stored assistant. */
export function toDraft(assistant: Assistant): AssistantDraft {
  const model = isObject(assistant.model) ? assistant.model : undefined;
  const intake = model?.intake;
  const voice = assistant.voice;
  return {
    name: assistant.name ?? '',
    firstMessage: assistant.firstMessage ?? '',
    knowledge: (model?.knowledge ?? []).map((entry) => ({
      key: newKey(),
      id: entry.id,
      questions: entry.questions.join('\n'),
      answer: entry.answer,
      urgent: entry.urgent === true,
      extra: without(entry, ['id', 'questions', 'answer', 'urgent']),
    })),
    intakeQuestions: (intake?.questions ?? []).map((question) => ({
      key: newKey(),
      id: question.id,
      ask: question.ask,
      extra: without(question, ['id', 'ask']),
    })),
    intakeTrigger: (intake?.trigger ?? []).join('\n'),
    intakeClosing: intake?.closing ?? '',
    voiceProvider: voice?.provider ?? EMBEDDED_VOICE.provider,
    voiceId: voice?.voiceId ?? EMBEDDED_VOICE.voiceId,
    maxDurationSeconds: assistant.maxDurationSeconds?.toString() ?? '',
    silenceTimeoutSeconds: assistant.silenceTimeoutSeconds?.toString() ?? '',
    serverUrl: assistant.serverUrl ?? '',
    secret: { mode: 'keep' },
    serverMessages: [...(assistant.serverMessages ?? DEFAULT_SERVER_MESSAGES)],
  };
}

/** Whether the stored assistant has a webhook secret (the answer only says so, masked). */
export const hasSecret = (assistant: Assistant): boolean =>
  typeof assistant.serverUrlSecret === 'string' && assistant.serverUrlSecret !== '';

/** `What are your opening hours?` → `what-are-your-opening-hours`, unique among `taken`. */
function slugFor(text: string, fallback: string, taken: Set<string>): string {
  const base =
    text
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40)
      .replace(/-+$/, '') || fallback;
  let slug = base;
  for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
  taken.add(slug);
  return slug;
}

/** The knowledge base as the assistant stores it (empty ids made from the first question). */
export function knowledgeOf(draft: AssistantDraft) {
  const taken = new Set(draft.knowledge.map((entry) => entry.id.trim()).filter(Boolean));
  return draft.knowledge.map((entry, index) => {
    const questions = lines(entry.questions);
    const id = entry.id.trim() || slugFor(questions[0] ?? '', `entry-${index + 1}`, taken);
    return {
      ...entry.extra,
      id,
      questions,
      answer: entry.answer.trim(),
      ...(entry.urgent ? { urgent: true } : {}),
    };
  });
}

/** The brief as the assistant stores it, or null for none. */
export function intakeOf(draft: AssistantDraft, stored: unknown) {
  const trigger = lines(draft.intakeTrigger);
  const closing = draft.intakeClosing.trim();
  if (draft.intakeQuestions.length === 0 && trigger.length === 0 && closing === '') return null;
  const taken = new Set(draft.intakeQuestions.map((q) => q.id.trim()).filter(Boolean));
  const questions = draft.intakeQuestions.map((question, index) => ({
    ...question.extra,
    id: question.id.trim() || slugFor(question.ask, `question-${index + 1}`, taken),
    ask: question.ask.trim(),
  }));
  return {
    ...(isObject(stored) ? without(stored, ['trigger', 'questions', 'closing']) : {}),
    ...(trigger.length > 0 ? { trigger } : {}),
    questions,
    ...(closing === '' ? {} : { closing }),
  };
}

const seconds = (text: string): number | null => (text.trim() === '' ? null : Number(text));

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The JSON Merge Patch from `initial` (the form as loaded) to `draft`: only the fields that
 * changed, `null` to remove one. The knowledge base and the brief are sent whole (arrays
 * replace); a model is added (the embedded one) when the assistant has none.
 */
export function buildPatch(
  assistant: Assistant,
  initial: AssistantDraft,
  draft: AssistantDraft,
): AssistantPatch {
  const patch: Record<string, unknown> = {};
  const set = (name: string, value: unknown, before: unknown) => {
    if (!same(value, before)) patch[name] = value;
  };
  set('name', draft.name.trim(), initial.name.trim());
  const greeting = (d: AssistantDraft) => (d.firstMessage.trim() === '' ? null : d.firstMessage);
  set('firstMessage', greeting(draft), greeting(initial));

  const storedModel = isObject(assistant.model) ? assistant.model : undefined;
  const model: Record<string, unknown> = {};
  const knowledge = knowledgeOf(draft);
  if (!same(knowledge, knowledgeOf(initial))) model.knowledge = knowledge.length ? knowledge : null;
  const intake = intakeOf(draft, storedModel?.intake);
  if (!same(intake, intakeOf(initial, storedModel?.intake))) model.intake = intake;
  if (Object.keys(model).length > 0) {
    patch.model = storedModel === undefined ? { ...EMBEDDED_MODEL, ...model } : model;
  }

  const voice = (d: AssistantDraft) => ({ provider: d.voiceProvider, voiceId: d.voiceId.trim() });
  set('voice', voice(draft), voice(initial));
  set('maxDurationSeconds', seconds(draft.maxDurationSeconds), seconds(initial.maxDurationSeconds));
  set(
    'silenceTimeoutSeconds',
    seconds(draft.silenceTimeoutSeconds),
    seconds(initial.silenceTimeoutSeconds),
  );
  const url = (d: AssistantDraft) => (d.serverUrl.trim() === '' ? null : d.serverUrl.trim());
  set('serverUrl', url(draft), url(initial));
  if (draft.secret.mode === 'replace') patch.serverUrlSecret = draft.secret.value;
  if (draft.secret.mode === 'remove') patch.serverUrlSecret = null;
  const sorted = (d: AssistantDraft) => [...d.serverMessages].sort();
  if (!same(sorted(draft), sorted(initial))) patch.serverMessages = draft.serverMessages;
  return patch as AssistantPatch;
}

/** RFC 7396, as the server applies a PATCH: to check the result before sending. */
function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const result: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete result[name];
    else result[name] = applyMergePatch(result[name], value);
  }
  return result;
}

/** Per-field messages, keyed by the form's field keys (see {@link fieldKeyFor}). */
export type FieldErrors = Record<string, string>;

const TOP_LEVEL_FIELDS = new Set([
  'name',
  'firstMessage',
  'maxDurationSeconds',
  'silenceTimeoutSeconds',
  'serverUrl',
  'serverUrlSecret',
  'serverMessages',
]);

/**
 * Where an error about a path of the assistant shows in `draft`'s form: `model.knowledge.2.answer`
 * → `knowledge.<key of the third entry>.answer`, `voice` → `voice.voiceId`; anything the
 * form has no field for keeps its dotted path (the page lists those above the form).
 */
export function fieldKeyFor(path: readonly PropertyKey[], draft: AssistantDraft): string {
  const [head, second, third, fourth, fifth] = path.map(String);
  if (head === 'model' && second === 'knowledge') {
    const entry = third === undefined ? undefined : draft.knowledge[Number(third)];
    if (entry === undefined) return 'knowledge';
    const field = fourth === 'questions' || fourth === 'answer' || fourth === 'id' ? fourth : '';
    return `knowledge.${entry.key}${field === '' ? '' : `.${field}`}`;
  }
  if (head === 'model' && second === 'intake') {
    if (third === 'trigger') return 'intake.trigger';
    if (third === 'closing') return 'intake.closing';
    if (third === 'questions' && fourth !== undefined) {
      const question = draft.intakeQuestions[Number(fourth)];
      if (question !== undefined) {
        const field = fifth === 'id' || fifth === 'ask' ? fifth : 'ask';
        return `intake.${question.key}.${field}`;
      }
    }
    return 'intake';
  }
  if (head === 'voice') return second === 'provider' ? 'voice.provider' : 'voice.voiceId';
  if (head !== undefined && TOP_LEVEL_FIELDS.has(head)) return head;
  return path.length === 0 ? 'body' : path.map(String).join('.');
}

/** Whether the form shows an error under `key` beside a field (else it is listed on top). */
export function isFormField(key: string): boolean {
  return (
    TOP_LEVEL_FIELDS.has(key) ||
    key === 'knowledge' ||
    key === 'intake' ||
    /^(knowledge|intake|voice)\./.test(key)
  );
}

/** The server's `fields` (keyed by dotted path) as form keys, for the draft that was sent. */
export function serverFieldErrors(
  fields: Readonly<Record<string, string>>,
  draft: AssistantDraft,
): FieldErrors {
  const errors: FieldErrors = {};
  for (const [path, message] of Object.entries(fields)) {
    errors[fieldKeyFor(path.split('.'), draft)] ??= message;
  }
  return errors;
}

const WHOLE_SECONDS = /^\d+(\.\d+)?$/;

/**
 * The checks the form makes before saving: its own (clearer words for the common slips),
 * then the protocol's schema on the assistant as the patch would leave it. Empty when fine.
 */
export function validateDraft(
  assistant: Assistant,
  initial: AssistantDraft,
  draft: AssistantDraft,
): FieldErrors {
  const errors: FieldErrors = {};
  if (draft.name.trim() === '') errors.name = 'Give the assistant a name.';
  const ids = new Set<string>();
  for (const entry of draft.knowledge) {
    if (lines(entry.questions).length === 0) {
      errors[`knowledge.${entry.key}.questions`] = 'Write at least one question, one a line.';
    }
    if (entry.answer.trim() === '') {
      errors[`knowledge.${entry.key}.answer`] = 'Write the answer the assistant gives.';
    }
    const id = entry.id.trim();
    if (id !== '' && ids.has(id)) {
      errors[`knowledge.${entry.key}.id`] = 'Another entry has this short name already.';
    }
    ids.add(id);
  }
  const questionIds = new Set<string>();
  for (const question of draft.intakeQuestions) {
    if (question.ask.trim() === '') errors[`intake.${question.key}.ask`] = 'Write the question.';
    const id = question.id.trim();
    if (id !== '' && questionIds.has(id)) {
      errors[`intake.${question.key}.id`] = 'Another question has this label already.';
    }
    questionIds.add(id);
  }
  if (draft.voiceId.trim() === '') errors['voice.voiceId'] = 'Name the voice, like en-us.';
  for (const name of ['maxDurationSeconds', 'silenceTimeoutSeconds'] as const) {
    const text = draft[name].trim();
    if (text !== '' && !WHOLE_SECONDS.test(text)) {
      errors[name] = 'Enter a number of seconds, or leave it empty for the default.';
    }
  }
  if (draft.secret.mode === 'replace' && draft.secret.value === '') {
    errors.serverUrlSecret = 'Enter the new secret, or cancel replacing it.';
  }
  if (Object.keys(errors).length > 0) return errors;

  const merged = applyMergePatch(assistant, buildPatch(assistant, initial, draft));
  const checked = assistantDtoSchema.safeParse(merged);
  if (checked.success) return errors;
  for (const issue of checked.error.issues) {
    errors[fieldKeyFor(issue.path, draft)] ??= issue.message;
  }
  return errors;
}
