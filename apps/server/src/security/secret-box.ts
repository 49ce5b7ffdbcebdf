import crypto from 'node:crypto';
import { deriveKey } from './master-key.js';

const VERSION = 'v1';

/**
 * Seals secrets at rest with AES-256-GCM under a key derived from the master key. Each
 * value gets a fresh 96-bit nonce; the `context` (for example `credentials:<id>`) is bound
 * in as associated data, so a sealed value copied to another row does not open there.
 */
export class SecretBox {
  readonly #key: Buffer;

  constructor(masterKey: Buffer) {
    this.#key = deriveKey(masterKey, 'talkbooth/secrets/v1');
  }

  seal(plaintext: string, context: string): string {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), body]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  /** Throws when the value was tampered with, sealed for another context, or under another key. */
  open(sealed: string, context: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== VERSION || iv === undefined || tag === undefined || body === undefined) {
      throw new Error('sealed value has an unknown format');
    }
    const decipher = crypto.createDecipheriv(
      'aes-256-gcm',
      this.#key,
      Buffer.from(iv, 'base64url'),
    );
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(body, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  }

  /** Seals a map of secrets (null when there are none). */
  sealJson(values: Record<string, string>, context: string): string | null {
    return Object.keys(values).length === 0 ? null : this.seal(JSON.stringify(values), context);
  }

  openJson(sealed: string | null, context: string): Record<string, string> {
    return sealed === null
      ? {}
      : (JSON.parse(this.open(sealed, context)) as Record<string, string>);
  }
}
