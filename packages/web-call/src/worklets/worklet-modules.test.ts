import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { workletUrls } from '../worklet-urls.js';
import { CAPTURE_PROCESSOR, PLAYBACK_PROCESSOR } from './worklet-protocol.js';

const source = (name: string) => fs.readFileSync(path.join(import.meta.dirname, name), 'utf8');

describe('worklet modules', () => {
  it.each(['capture-worklet.ts', 'playback-worklet.ts'])(
    '%s has no runtime imports (bundlers copy it as a single asset)',
    (file) => {
      const text = source(file);
      const imports = text.match(/^\s*(import|export)\s[^;]*\sfrom\s/gm) ?? [];
      expect(imports.every((statement) => /^\s*import type\s/.test(statement))).toBe(true);
      expect(text).not.toMatch(/\bimport\(/);
    },
  );

  it('register the processor names the main thread uses', () => {
    expect(source('capture-worklet.ts')).toContain(`const PROCESSOR_NAME = '${CAPTURE_PROCESSOR}'`);
    expect(source('playback-worklet.ts')).toContain(
      `const PROCESSOR_NAME = '${PLAYBACK_PROCESSOR}'`,
    );
  });

  it('are found next to the client module, in the bundler-visible form', () => {
    // (Vite, which runs these tests, rewrites the URLs to the sources it serves.)
    const urls = workletUrls();
    expect(urls.capture.pathname).toMatch(/\/worklets\/capture-worklet\.(js|ts)$/);
    expect(urls.playback.pathname).toMatch(/\/worklets\/playback-worklet\.(js|ts)$/);
    const text = fs.readFileSync(path.join(import.meta.dirname, '../worklet-urls.ts'), 'utf8');
    expect(text).toContain("new URL('./worklets/capture-worklet.js?no-inline', import.meta.url)");
    expect(text).toContain("new URL('./worklets/playback-worklet.js?no-inline', import.meta.url)");
  });

  it('can be served from elsewhere (workletBaseUrl)', () => {
    expect(String(workletUrls('https://cdn.test/audio').capture)).toBe(
      'https://cdn.test/audio/capture-worklet.js',
    );
    expect(String(workletUrls('https://cdn.test/audio/').playback)).toBe(
      'https://cdn.test/audio/playback-worklet.js',
    );
  });
});
