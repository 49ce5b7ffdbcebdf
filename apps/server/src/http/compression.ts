import zlib from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/**
 * Compresses answers over 1 KiB (the web app's bundles, long assistant lists) with brotli
 * or gzip, as the browser asks. Brotli at quality 5: close to its best size for text at a
 * fraction of the default's (11) CPU, which matters on a machine that also runs the voice
 * engine. Hashed assets are cached for a year, so each is compressed for a visitor once.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } },
    zlibOptions: { level: 6 },
  });
}
