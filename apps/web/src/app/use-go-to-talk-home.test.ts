import { describe, expect, it } from 'vitest';
import { resolveTalkHome } from './use-go-to-talk-home';

const ORIGIN = 'https://booth.example';

describe('resolveTalkHome', () => {
  it('routes same-origin paths through the router', () => {
    expect(resolveTalkHome('/', ORIGIN)).toEqual({ kind: 'route', path: '/' });
    expect(resolveTalkHome('/thanks?x=1#top', ORIGIN)).toEqual({
      kind: 'route',
      path: '/thanks?x=1#top',
    });
    expect(resolveTalkHome('https://booth.example/after', ORIGIN)).toEqual({
      kind: 'route',
      path: '/after',
    });
    expect(resolveTalkHome('', ORIGIN)).toEqual({ kind: 'route', path: '/' });
  });

  it('loads other origins in full', () => {
    expect(resolveTalkHome('https://riverside.example/visit', ORIGIN)).toEqual({
      kind: 'external',
      href: 'https://riverside.example/visit',
    });
    expect(resolveTalkHome('//evil.example/x', ORIGIN)).toEqual({
      kind: 'external',
      href: 'https://evil.example/x',
    });
  });
});
