/**
 * eSpeak NG's American English IPA (as `synthesize_ipa` writes it, phonemes joined by `_`)
 * → the recogniser's phones (CMUdict's 39, no stress). Used to sound out words the
 * pronunciation dictionary lacks ("toothache", "instalments", a business's name).
 */

/** eSpeak's en-us phonemes and the CMUdict phones each stands for. */
const IPA_TO_PHONES: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries({
    // Vowels and diphthongs.
    ɑː: ['AA'],
    ɑ: ['AA'],
    ɒ: ['AA'],
    æ: ['AE'],
    ʌ: ['AH'],
    ə: ['AH'],
    ɐ: ['AH'],
    ɔː: ['AO'],
    ɔ: ['AO'],
    aʊ: ['AW'],
    aɪ: ['AY'],
    ɛ: ['EH'],
    e: ['EH'],
    ɜː: ['ER'],
    ɜ: ['ER'],
    ɚ: ['ER'],
    ɝ: ['ER'],
    eɪ: ['EY'],
    ɪ: ['IH'],
    ᵻ: ['IH'],
    i: ['IY'],
    iː: ['IY'],
    oʊ: ['OW'],
    əʊ: ['OW'],
    o: ['OW'],
    ɔɪ: ['OY'],
    ʊ: ['UH'],
    u: ['UW'],
    uː: ['UW'],
    // Vowels with their r, and other pairs eSpeak writes as one phoneme.
    ɑːɹ: ['AA', 'R'],
    ɔːɹ: ['AO', 'R'],
    oːɹ: ['AO', 'R'],
    ɛɹ: ['EH', 'R'],
    ɪɹ: ['IH', 'R'],
    ʊɹ: ['UH', 'R'],
    aɪɚ: ['AY', 'ER'],
    aɪə: ['AY', 'ER'],
    aʊɚ: ['AW', 'ER'],
    iə: ['IY', 'AH'],
    əl: ['AH', 'L'],
    l̩: ['AH', 'L'],
    n̩: ['AH', 'N'],
    m̩: ['AH', 'M'],
    // Consonants.
    b: ['B'],
    tʃ: ['CH'],
    d: ['D'],
    ð: ['DH'],
    f: ['F'],
    ɡ: ['G'],
    g: ['G'],
    h: ['HH'],
    dʒ: ['JH'],
    k: ['K'],
    x: ['K'],
    l: ['L'],
    ɫ: ['L'],
    m: ['M'],
    n: ['N'],
    ŋ: ['NG'],
    p: ['P'],
    ɹ: ['R'],
    r: ['R'],
    s: ['S'],
    ʃ: ['SH'],
    t: ['T'],
    θ: ['TH'],
    v: ['V'],
    w: ['W'],
    ʍ: ['W'],
    j: ['Y'],
    z: ['Z'],
    ʒ: ['ZH'],
    // American English's glottal stop stands for a t ("written", "button").
    ʔ: ['T'],
  }),
);

/** Stress marks, and eSpeak's marks of its own pauses and links. */
const IGNORED = /[ˈˌ‖|.‿]/g;

/** The longest key of {@link IPA_TO_PHONES}, in characters. */
const LONGEST = Math.max(...[...IPA_TO_PHONES.keys()].map((k) => k.length));

/**
 * The CMUdict phones of one word's eSpeak IPA (`"t_ˈuː_θ_eɪ_k"` → `"T UW TH EY K"`), or
 * undefined when a phoneme has no counterpart (the word is then better left unheard than
 * heard as something else). `spelling` decides eSpeak's flap `ɾ`, which CMUdict writes as
 * the letter the word is spelt with ("better" T, "ladder" D).
 */
export function ipaToPhones(ipa: string, spelling = ''): string | undefined {
  const phones: string[] = [];
  for (const raw of ipa.trim().split(/[_\s]+/)) {
    const token = raw.replace(IGNORED, '');
    if (token === '') continue;
    const mapped = phonemeOf(token, spelling);
    if (mapped === undefined) return undefined;
    for (const phone of mapped) {
      // eSpeak links an r-coloured vowel to a following vowel with an r of its own
      // ("current" k_ɚ_ɹ_ə_n_t); CMUdict writes the r once (K ER AH N T).
      const last = phones.at(-1);
      if (phone === 'R' && (last === 'R' || last === 'ER')) continue;
      phones.push(phone);
    }
  }
  return phones.length > 0 ? phones.join(' ') : undefined;
}

/**
 * The phones of one of eSpeak's tokens: usually one phoneme, sometimes one joined with its
 * neighbour, so it is read greedily, longest match first.
 */
function phonemeOf(token: string, spelling: string): readonly string[] | undefined {
  const out: string[] = [];
  let at = 0;
  while (at < token.length) {
    let matched = 0;
    for (let len = Math.min(LONGEST, token.length - at); len > 0; len--) {
      const part = token.slice(at, at + len);
      const phones = part === 'ɾ' ? flap(spelling) : IPA_TO_PHONES.get(part);
      if (phones !== undefined) {
        out.push(...phones);
        matched = len;
        break;
      }
    }
    if (matched === 0) return undefined;
    at += matched;
  }
  return out;
}

/** The flap of "better" and "ladder": D when the word is spelt with a d and no t. */
function flap(spelling: string): readonly string[] {
  return /d/.test(spelling) && !/t/.test(spelling) ? ['D'] : ['T'];
}
