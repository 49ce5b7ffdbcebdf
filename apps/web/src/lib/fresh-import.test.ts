import { describe, expect, it, vi } from 'vitest';
import { importWithRetry, moduleUrlFromError } from './fresh-import';

const ORIGIN = 'https://booth.example';

describe('moduleUrlFromError', () => {
  it('finds the chunk address in Chromium and Firefox messages', () => {
    expect(
      moduleUrlFromError(
        new TypeError(
          'Failed to fetch dynamically imported module: https://booth.example/assets/CallBoothPage-abc.js',
        ),
        ORIGIN,
      ),
    ).toBe('https://booth.example/assets/CallBoothPage-abc.js');
    expect(
      moduleUrlFromError(
        new TypeError(
          'error loading dynamically imported module: https://booth.example/assets/x.js',
        ),
        ORIGIN,
      ),
    ).toBe('https://booth.example/assets/x.js');
  });

  it('ignores other origins and messages without an address', () => {
    expect(
      moduleUrlFromError(new TypeError('Failed: https://cdn.example/assets/x.js'), ORIGIN),
    ).toBeNull();
    expect(
      moduleUrlFromError(new TypeError('Importing a module script failed.'), ORIGIN),
    ).toBeNull();
    expect(moduleUrlFromError('nope', ORIGIN)).toBeNull();
  });
});

describe('importWithRetry', () => {
  it('returns the module when the import works', async () => {
    const module = { default: 1 };
    await expect(importWithRetry(() => Promise.resolve(module), 1)).resolves.toBe(module);
  });

  it('rethrows on the first attempt without trying again', async () => {
    const error = new TypeError(`Failed: ${window.location.origin}/assets/x.js`);
    const importer = vi.fn(() => Promise.reject(error));
    await expect(importWithRetry(importer, 0)).rejects.toBe(error);
    expect(importer).toHaveBeenCalledTimes(1);
  });

  it('rethrows on a retry when the error names no chunk', async () => {
    const error = new TypeError('Importing a module script failed.');
    await expect(importWithRetry(() => Promise.reject(error), 2)).rejects.toBe(error);
  });
});
