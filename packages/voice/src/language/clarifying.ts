/**
 * The words every clarifying question of the local reply engine carries ("Do you mean, A,
 * or B?"). The recogniser hears the reply to a question that carries them with a model that
 * expects "the first one", "both" or "neither" beside the assistant's own sentences.
 */
export const CLARIFYING_QUESTION = 'do you mean';
