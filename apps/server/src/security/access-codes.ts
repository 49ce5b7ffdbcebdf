import crypto from 'node:crypto';
import { deriveKey } from './master-key.js';

/**
 * Access codes (UniCodes). Only a keyed hash of the normalised code is stored: a leaked
 * database does not reveal the codes, and without the key the short codes cannot be
 * brute-forced offline.
 */

/** Lower-case letters and digits a listener cannot confuse (no i, l, o, 0, 1). */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const GROUP = 5;
const GROUPS = 2;

/** How a code is compared: case, spaces and dashes don't matter (`ABCDE-fghjk` = `abcdefghjk`). */
export function normaliseAccessCode(code: string): string {
  return code
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s-]+/g, '');
}

/** The key access codes are hashed with, derived from the master key. */
export function accessCodeKey(masterKey: Buffer): Buffer {
  return deriveKey(masterKey, 'talkbooth/access-codes/v1');
}

export function hashAccessCode(code: string, key: Buffer): string {
  return crypto.createHmac('sha256', key).update(normaliseAccessCode(code)).digest('hex');
}

/**
 * A new code like `k7mqx-t3fhw`: 10 symbols from 31, about 49.5 bits, read aloud in two
 * groups. With failed guesses rate-limited per client, guessing one is out of reach.
 */
export function generateAccessCode(): string {
  const groups: string[] = [];
  for (let g = 0; g < GROUPS; g += 1) {
    let group = '';
    for (let i = 0; i < GROUP; i += 1) group += ALPHABET[crypto.randomInt(ALPHABET.length)];
    groups.push(group);
  }
  return groups.join('-');
}
