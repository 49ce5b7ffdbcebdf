/**
 * Text normalisation for language-model training and for scoring: lower case, numbers
 * spelled out, punctuation removed, contractions kept the way the pronunciation
 * dictionary spells them (`don't`, `i'm`).
 */

const ONES = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
] as const;
const TENS = [
  '',
  '',
  'twenty',
  'thirty',
  'forty',
  'fifty',
  'sixty',
  'seventy',
  'eighty',
  'ninety',
] as const;

const ORDINAL_WORDS: Record<string, string> = {
  one: 'first',
  two: 'second',
  three: 'third',
  four: 'fourth',
  five: 'fifth',
  six: 'sixth',
  seven: 'seventh',
  eight: 'eighth',
  nine: 'ninth',
  ten: 'tenth',
  eleven: 'eleventh',
  twelve: 'twelfth',
  thirteen: 'thirteenth',
  fourteen: 'fourteenth',
  fifteen: 'fifteenth',
  sixteen: 'sixteenth',
  seventeen: 'seventeenth',
  eighteen: 'eighteenth',
  nineteen: 'nineteenth',
  twenty: 'twentieth',
  thirty: 'thirtieth',
  forty: 'fortieth',
  fifty: 'fiftieth',
  sixty: 'sixtieth',
  seventy: 'seventieth',
  eighty: 'eightieth',
  ninety: 'ninetieth',
  hundred: 'hundredth',
};

/** Spells 0–100 as words (`42` → `forty two`); larger numbers digit by digit (`555` → `five five five`). */
export function numberToWords(n: number): string {
  if (!Number.isInteger(n) || n < 0)
    throw new RangeError(`numberToWords: ${n} is not a whole number ≥ 0`);
  if (n < 20) return ONES[n] as string;
  if (n < 100) {
    const tens = TENS[Math.floor(n / 10)] as string;
    const unit = n % 10;
    return unit === 0 ? tens : `${tens} ${ONES[unit] as string}`;
  }
  if (n === 100) return 'one hundred';
  return [...String(n)].map((d) => ONES[Number(d)] as string).join(' ');
}

/** `21` → `twenty first`; only the last word turns ordinal. */
export function ordinalToWords(n: number): string {
  const words = numberToWords(n).split(' ');
  const last = words.pop() as string;
  return [...words, ORDINAL_WORDS[last] ?? `${last}th`].join(' ');
}

function spellDigits(digits: string): string {
  // Leading zeros and long runs (phone numbers, codes) read digit by digit.
  if (digits.length > 1 && digits.startsWith('0'))
    return [...digits].map((d) => numberToWords(Number(d))).join(' ');
  return numberToWords(Number(digits));
}

const SYMBOLS: [RegExp, string][] = [
  [/&/g, ' and '],
  [/%/g, ' percent '],
  [/\+/g, ' plus '],
  [/@/g, ' at '],
];

/**
 * Normalises one utterance or sentence to the recogniser's word form: `"What's the
 * cost? $60!"` → `what's the cost sixty dollars`.
 */
export function normalizeText(text: string): string {
  let s = text.normalize('NFKC').toLowerCase();
  s = s.replace(/[\u2018\u2019\u02bc\u0060\u00b4]/g, "'");
  s = s.replace(/[\u2010-\u2015]/g, '-');
  // Money and numbers first, while their punctuation still means something.
  s = s.replace(/\$\s?(\d+)(?:\.(\d{2}))?/g, (_m, whole: string, cents: string | undefined) => {
    const dollars = `${spellDigits(whole)} ${whole === '1' ? 'dollar' : 'dollars'}`;
    return cents && cents !== '00'
      ? ` ${dollars} and ${spellDigits(cents.replace(/^0/, ''))} cents `
      : ` ${dollars} `;
  });
  s = s.replace(/(\d+)(?:st|nd|rd|th)\b/g, (_m, d: string) => ` ${ordinalToWords(Number(d))} `);
  s = s.replace(
    /(\d+)[.,](\d+)/g,
    (_m, a: string, b: string) =>
      ` ${spellDigits(a)} point ${[...b].map((d) => numberToWords(Number(d))).join(' ')} `,
  );
  s = s.replace(/\d+/g, (d) => ` ${spellDigits(d)} `);
  for (const [re, word] of SYMBOLS) s = s.replace(re, word);
  // Hyphens join words ("follow-up" → "follow up"); apostrophes stay only inside words.
  s = s.replace(/[-_/]/g, ' ');
  s = s.replace(/[^a-z' ]+/g, ' ');
  s = s.replace(/(^|\s)'+|'+(?=\s|$)/g, ' ');
  return s.replace(/\s+/g, ' ').trim();
}

/** The words of a normalised text ('' → []). */
export function words(text: string): string[] {
  const n = normalizeText(text);
  return n === '' ? [] : n.split(' ');
}
