import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { decodeKey } from '../config.js';

export const KEY_FILE_NAME = 'secret.key';

/**
 * The 32-byte master key every other secret is derived from: SECRET_KEY when set, else a
 * key file in the data folder, created on first start with mode 0600. Replicas of one
 * deployment must share it (set SECRET_KEY): codes hashed with one key do not match
 * under another.
 */
export function loadMasterKey(configured: Buffer | undefined, dataDir: string): Buffer {
  if (configured !== undefined) return configured;
  const file = path.join(dataDir, KEY_FILE_NAME);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  try {
    // `wx` fails when the file exists, so two processes starting at once cannot both
    // write a different key.
    fs.writeFileSync(file, `${crypto.randomBytes(32).toString('hex')}\n`, {
      mode: 0o600,
      flag: 'wx',
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const key = decodeKey(fs.readFileSync(file, 'utf8'));
  if (key === null) {
    throw new Error(
      `The key file ${file} does not hold a 32-byte hex key. Restore it from a backup; ` +
        'deleting it makes every stored access code invalid.',
    );
  }
  return key;
}

/** A sub-key for one purpose, so no two uses ever share key material. */
export function deriveKey(masterKey: Buffer, purpose: string): Buffer {
  return Buffer.from(crypto.hkdfSync('sha256', masterKey, Buffer.alloc(0), purpose, 32));
}
