/**
 * The built lexicon's version, read without loading the lexicon (its own file: the module's
 * loaded lexicon is shared, and must not be loaded before this test looks).
 */
import { describe, expect, it, vi } from 'vitest';
import { Lexicon } from './lexicon.js';

describe('Lexicon.defaultVersion', () => {
  it('reads the built lexicon’s version from its file without loading it, and agrees with it once loaded', () => {
    const load = vi.spyOn(Lexicon, 'load');
    const version = Lexicon.defaultVersion();
    expect(load).not.toHaveBeenCalled();
    expect(version).toBe(Lexicon.default().version);
    expect(load).toHaveBeenCalledTimes(1);
    expect(Lexicon.defaultVersion()).toBe(version);
  });
});
