import type { Call } from '@talkbooth/protocol';

/** The parts of a stored call the console shows, read defensively (they are server-written JSON). */
export interface CallView {
  summary: string | null;
  brief: [question: string, answer: string | null][];
  briefConfirmed: boolean;
  urgent: boolean;
  unanswered: string[];
  lines: { role: 'caller' | 'assistant'; text: string; secondsFromStart: number | null }[];
  turns: {
    turn: number;
    voiceToVoiceMs: number | null;
    recognitionMs: number | null;
    firstAudioMs: number | null;
    model: string | null;
  }[];
  durationSeconds: number | null;
}

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
const numberOr = (value: unknown): number | null => (typeof value === 'number' ? value : null);

/** "medications" → "Medications", "pain_level" → "Pain level". */
export const questionLabel = (id: string) => {
  const words = id
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

export function viewOf(call: Call): CallView {
  const data = call as unknown as Record<string, unknown>;
  const structured = record(record(data.analysis).structuredData);
  const brief = Object.entries(record(structured.brief)).map(
    ([id, answer]) =>
      [id, answer === null || answer === undefined ? null : String(answer)] as [
        string,
        string | null,
      ],
  );
  const lines = (call.messages ?? [])
    .filter((m) => m.role === 'user' || m.role === 'bot' || m.role === 'assistant')
    .map((m) => ({
      role: m.role === 'user' ? ('caller' as const) : ('assistant' as const),
      text: m.message ?? m.content ?? '',
      secondsFromStart: numberOr(m.secondsFromStart),
    }));
  const turns = (
    Array.isArray(record(data.latency).turns) ? (record(data.latency).turns as unknown[]) : []
  ).map((value, index) => {
    const t = record(value);
    return {
      turn: numberOr(t.turn) ?? index + 1,
      voiceToVoiceMs: numberOr(t.voiceToVoiceMs),
      recognitionMs: numberOr(t.recognitionMs),
      firstAudioMs: numberOr(t.firstAudioMs),
      model: typeof t.recognitionModel === 'string' ? t.recognitionModel : null,
    };
  });
  const started = call.startedAt ? Date.parse(call.startedAt) : NaN;
  const ended = call.endedAt ? Date.parse(call.endedAt) : NaN;
  return {
    summary: typeof data.summary === 'string' && data.summary !== '' ? data.summary : null,
    brief,
    briefConfirmed: structured.confirmed === true,
    urgent: structured.urgent === true,
    unanswered: Array.isArray(structured.unanswered)
      ? structured.unanswered.filter((q): q is string => typeof q === 'string')
      : [],
    lines,
    turns,
    durationSeconds:
      Number.isNaN(started) || Number.isNaN(ended) ? null : Math.round((ended - started) / 1000),
  };
}

/** "0:07" from seconds since the call started. */
export const callClock = (seconds: number | null) =>
  seconds === null
    ? ''
    : `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, '0')}`;
