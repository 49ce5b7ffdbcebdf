import type { TranscriptRole } from './call-service';

/** A finished line of the conversation. */
export interface TranscriptLine {
  id: number;
  role: TranscriptRole;
  text: string;
}

/**
 * The conversation so far: finished lines in order, and for each side the words still being
 * recognised (shown until the final line replaces them).
 */
export interface Transcript {
  lines: TranscriptLine[];
  partial: Record<TranscriptRole, string | null>;
  nextId: number;
}

export const EMPTY_TRANSCRIPT: Transcript = {
  lines: [],
  partial: { user: null, assistant: null },
  nextId: 1,
};

/** Adds a transcript message: a partial replaces that side's partial, a final ends it. */
export function addTranscript(
  transcript: Transcript,
  role: TranscriptRole,
  transcriptType: 'partial' | 'final',
  text: string,
): Transcript {
  const words = text.trim();
  if (transcriptType === 'partial') {
    const partial = words === '' ? null : words;
    if (transcript.partial[role] === partial) return transcript;
    return { ...transcript, partial: { ...transcript.partial, [role]: partial } };
  }
  const partial = { ...transcript.partial, [role]: null };
  if (words === '') return { ...transcript, partial };
  return {
    lines: [...transcript.lines, { id: transcript.nextId, role, text: words }],
    partial,
    nextId: transcript.nextId + 1,
  };
}
