/**
 * Why a call ended, told to the visitor when it was not their own doing. Reasons are the
 * platform's `endedReason` values; the visitor hanging up needs no explanation.
 */
const REASONS: Record<string, string> = {
  'server-shutdown': 'The call ended because the service was stopped or restarted.',
  'silence-timed-out': 'The call ended because nobody spoke for a while.',
  'exceeded-max-duration': 'The call reached its maximum length.',
  'assistant-ended-call': 'The assistant ended the call.',
  'manually-canceled': 'The call was ended by the business you were talking to.',
  'assistant-said-end-call-phrase': 'The assistant ended the call.',
  'assistant-error': 'The call ended because of a problem on our side.',
  'unknown-error': 'The call ended because of a problem on our side.',
  'customer-sent-invalid-data':
    'The call ended because this browser sent audio the service could not read.',
  'customer-sent-audio-too-fast':
    'The call ended because this browser sent audio faster than anyone can speak.',
  'server-crashed': 'The call ended because the service stopped unexpectedly.',
  'worker-lost': 'The call ended because the service running it stopped unexpectedly.',
  'pipeline-error-transcriber-failed':
    'The call ended because speech recognition stopped on our side. Please call again.',
};

export function endedReasonNote(reason: string | undefined): string | null {
  return reason === undefined ? null : (REASONS[reason] ?? null);
}
