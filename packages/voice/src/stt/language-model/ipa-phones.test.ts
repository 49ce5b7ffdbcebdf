import { describe, expect, it } from 'vitest';
import { ipaToPhones } from './ipa-phones.js';

describe('ipaToPhones (eSpeak en-us IPA → CMUdict phones)', () => {
  it('maps each phoneme, dropping stress marks', () => {
    // What eSpeak writes for "toothache", "instalments" and "GP".
    expect(ipaToPhones('t_ˈuː_θ_eɪ_k')).toBe('T UW TH EY K');
    expect(ipaToPhones('ɪ_n_s_t_ˈɔː_l_m_ə_n_t_s')).toBe('IH N S T AO L M AH N T S');
    expect(ipaToPhones('dʒ_ˌiː_p_ˈiː')).toBe('JH IY P IY');
  });

  it('splits a vowel written with its r, and skips empty phonemes', () => {
    expect(ipaToPhones('w_ˈɔːɹ_f_ɚ_ɹ_ˌɪ_n')).toBe('W AO R F ER IH N');
    expect(ipaToPhones('f_ˈɪ_z_ɪ__ˌoʊ\n')).toBe('F IH Z IH OW');
  });

  it('reads phonemes eSpeak joined together', () => {
    expect(ipaToPhones('ʃˈɪp')).toBe('SH IH P');
  });

  it('writes a linking r once, and a glottal stop as the t it stands for', () => {
    expect(ipaToPhones('k_ˈɜː_ɹ_ə_n_t')).toBe('K ER AH N T');
    expect(ipaToPhones('ɪ_n_ʃ_ˈʊɹ_ɹ_ə_n_s')).toBe('IH N SH UH R AH N S');
    expect(ipaToPhones('ɹ_ˈɪ_ʔ_n̩')).toBe('R IH T AH N');
  });

  it('writes the flap as the letter the word is spelt with', () => {
    expect(ipaToPhones('b_ˈɛ_ɾ_ɚ', 'better')).toBe('B EH T ER');
    expect(ipaToPhones('l_ˈæ_ɾ_ɚ', 'ladder')).toBe('L AE D ER');
  });

  it('gives up on a phoneme it has no phone for, and on nothing at all', () => {
    expect(ipaToPhones('t_ˈuː_ʁ')).toBeUndefined();
    expect(ipaToPhones('ˈ_ _')).toBeUndefined();
  });
});
