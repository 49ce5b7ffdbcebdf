import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  accessCodeKey,
  generateAccessCode,
  hashAccessCode,
  normaliseAccessCode,
} from './access-codes.js';

describe('access codes', () => {
  it('generates codes that are easy to read aloud: two groups of five unambiguous symbols', () => {
    const codes = new Set(Array.from({ length: 2000 }, () => generateAccessCode()));
    expect(codes.size).toBe(2000);
    for (const code of codes) expect(code).toMatch(/^[a-hjkmnp-z2-9]{5}-[a-hjkmnp-z2-9]{5}$/);
  });

  it('compares codes without regard to case, spaces, dashes or Unicode width', () => {
    expect(normaliseAccessCode(' K7MQX-t3fhw ')).toBe('k7mqxt3fhw');
    expect(normaliseAccessCode('k7mqx t3fhw')).toBe('k7mqxt3fhw');
    expect(normaliseAccessCode('ＫＡＴ')).toBe('kat');
  });

  it('hashes with a key: same code and key give the same hash, another key another hash', () => {
    const key = accessCodeKey(crypto.randomBytes(32));
    const other = accessCodeKey(crypto.randomBytes(32));
    expect(hashAccessCode('abcde-fghjk', key)).toBe(hashAccessCode('ABCDE FGHJK', key));
    expect(hashAccessCode('abcde-fghjk', key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashAccessCode('abcde-fghjk', key)).not.toBe(hashAccessCode('abcde-fghjk', other));
    expect(hashAccessCode('abcde-fghjk', key)).not.toBe(
      crypto.createHash('sha256').update('abcdefghjk').digest('hex'),
    );
  });
});
