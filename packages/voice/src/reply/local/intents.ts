/**
 * Small-talk intents, yes/no, corrections and question form, on normalised text (see
 * `normalize` in text.ts). Most intents match a whole utterance, so "hello where is the
 * pharmacy" is a knowledge question, not a greeting.
 */
import { normalize, stripFillers } from './text.js';

export type SmallTalk = 'greeting' | 'thanks' | 'repeat' | 'capabilities';

const GREETING =
  /^(?:(?:hello|hi|hey|hiya|howdy|greetings|good (?:morning|afternoon|evening|day))(?: there)? ?)+$/;

const THANKS_WORDS = new Set(['thank', 'thanks', 'cheers']);
/** Words that may come with thanks and still make it only thanks ("ok thank you very much"). */
const THANKS_COMPANIONS = new Set(
  `you very much so a lot ok okay great that is was helpful perfect lovely good alright right
  brilliant wonderful many really`.split(/\s+/),
);

const REPEAT =
  /\b(?:repeat(?: that| it| this| yourself| the question| please| again)|can you repeat|could you repeat|say (?:that|it) again|pardon|come again|what did you say|i did not (?:hear|catch) (?:that|you|it)|one more time)\b|^(?:sorry )?(?:repeat|what|sorry)$/;

const CAPABILITIES =
  /\b(?:what can you do|what do you do|how can you help|what can i ask|what (?:else )?can you help(?: me)? with|what are you able to do|what do you know about|what are my options|what can you tell me)\b|^(?:help|help me|i need help)$/;

/** The small-talk intent of a whole utterance, if it is one. */
export function smallTalk(normalized: string): SmallTalk | undefined {
  const n = stripFillers(normalized);
  if (n === '') return undefined;
  if (REPEAT.test(n)) return 'repeat';
  if (CAPABILITIES.test(n)) return 'capabilities';
  if (GREETING.test(n)) return 'greeting';
  const ws = n.split(' ');
  if (
    ws.some((w) => THANKS_WORDS.has(w)) &&
    ws.every((w) => THANKS_WORDS.has(w) || THANKS_COMPANIONS.has(w))
  ) {
    return 'thanks';
  }
  return undefined;
}

const GOODBYES = [
  'goodbye',
  'good bye',
  'bye',
  'bye bye',
  'see you',
  'hang up',
  'talk to you later',
];

/**
 * Whether the caller is ending the call (the assistant's end-call phrases, or a goodbye).
 * A question is not a goodbye, whatever it holds after its first word, unless it thanks
 * first: "can i see you tomorrow" asks for something, and a goodbye heard inside a question
 * ("where … when bye right" in a loaded call) was a misheard word, which had ended the call
 * mid-conversation.
 * The assistant's own end-call phrases count wherever they are.
 */
export function isGoodbye(normalized: string, endCallPhrases: readonly string[] = []): boolean {
  const words = normalized.split(' ').filter(Boolean);
  const asking = isQuestion(normalized);
  const said = (phrase: string, anywhere: boolean) => {
    const p = normalize(phrase).split(' ').filter(Boolean);
    if (p.length === 0) return false;
    for (let at = 0; at + p.length <= words.length; at++) {
      if (!p.every((w, k) => words[at + k] === w)) continue;
      // Thanks before it make it a farewell after all ("what a help, thank you, bye").
      if (!anywhere && at > 0 && !words.slice(0, at).some((w) => THANKS_WORDS.has(w))) continue;
      // "thanks, bye" and "ok bye then" end the call; "bye" in the middle of a sentence
      // that goes on ("… bye can not swallow") is more likely a misheard word.
      if (words.length - (at + p.length) <= MAX_WORDS_AFTER_GOODBYE) return true;
    }
    return false;
  };
  return (
    endCallPhrases.some((phrase) => said(phrase, true)) ||
    GOODBYES.some((phrase) => said(phrase, !asking))
  );
}

/** Words a caller may add after their goodbye ("bye then", "goodbye for now"). */
const MAX_WORDS_AFTER_GOODBYE = 2;

const YES_FIRST = new Set([
  'yes',
  'yeah',
  'yep',
  'yup',
  'yah',
  'ya',
  'sure',
  'correct',
  'absolutely',
  'definitely',
  'exactly',
  'affirmative',
]);
const YES_WHOLE =
  /^(?:ok|okay|right|alright|all right|please|go ahead|of course|that is right|that is correct|sounds good|sounds right|it is right|it is correct|perfect|great|fine|good)(?: please| thanks| thank you)?$/;
const NO_FIRST = new Set(['no', 'nope', 'nah', 'incorrect', 'wrong']);
const NO_WHOLE =
  /^(?:not really|not quite|that is wrong|that is not right|that is not correct|it is wrong|it is not right|not right|negative|neither|neither one|neither of them|none of them|none)$/;

/** Yes, no, or neither, from how the utterance starts. */
export function yesNo(normalized: string): 'yes' | 'no' | undefined {
  const n = stripFillers(normalized);
  const first = n.split(' ')[0] ?? '';
  if (NO_FIRST.has(first) || NO_WHOLE.test(n)) return 'no';
  if (YES_FIRST.has(first) || YES_WHOLE.test(n)) return 'yes';
  return undefined;
}

const CORRECTION_LEAD = '(?:(?:no|sorry|actually|oops|wait|oh|sorry no|no sorry) )+';
const CORRECTION_VERB =
  '(?:i meant|i mean|i said|what i meant was|it is|it was|it should be|make that|make it|change that to|change it to)';
const CORRECTION = new RegExp(
  `^(?:${CORRECTION_LEAD}${CORRECTION_VERB}|(?:i meant|what i meant was|make that|change that to|correction)) (.+)$`,
);

/**
 * The corrected value when the utterance corrects what the caller just said: "no i meant
 * five days" → "five days", "sorry i meant two weeks" → "two weeks".
 */
export function correction(normalized: string): string | undefined {
  const m = CORRECTION.exec(stripFillers(normalized));
  const value = m?.[1]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

const QUESTION_START = new Set(
  `what where when how why who which whose do does did is are can could will would should may am
  was were have has`.split(/\s+/),
);
const QUESTION_LEAD =
  /^(?:(?:and|so|also|but|sorry|excuse me|by the way|quick question|one more thing|oh|then) )+/;

/** Whether the utterance is asked as a question (recognisers give no question marks). */
export function isQuestion(normalized: string): boolean {
  const n = stripFillers(normalized).replace(QUESTION_LEAD, '');
  const first = n.split(' ')[0] ?? '';
  if (QUESTION_START.has(first) && !/^(?:would|will) (?:like|be)\b/.test(n)) return true;
  return /\b(?:tell me|i (?:want|would like|need) to know|i was wondering|do you know)\b/.test(n);
}

const STOP_BRIEF =
  /^(?:please )?(?:stop|cancel|forget|skip|quit|never mind|nevermind)(?: (?:the|this|my|that|it))?(?: brief| questions| it| that| this)?(?: please| for now)?$|\b(?:stop|cancel|forget) (?:the|this|my) brief\b/;

/** Whether the caller wants to stop the brief part-way. */
export function isStopBrief(normalized: string): boolean {
  return STOP_BRIEF.test(stripFillers(normalized));
}

/** "No, nothing else" after "anything else?": the caller is done. */
const NOTHING_ELSE =
  /^(?:no|nope|nah|nothing|not really|that is all|that is it|that is everything|i am (?:good|fine|ok|okay)|all good)(?: (?:thanks|thank you|thank you very much|that is all|that is it|nothing else|that will be all|i am (?:good|fine|ok|okay)|all good|that is everything))*$/;

export function isNothingElse(normalized: string): boolean {
  return NOTHING_ELSE.test(stripFillers(normalized));
}
