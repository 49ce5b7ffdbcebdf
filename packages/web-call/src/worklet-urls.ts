/**
 * Where the audio worklet modules are. The form below, a `new URL` of a relative string
 * literal and `import.meta.url`, is deliberate and must stay exactly so: bundlers (Vite,
 * webpack, Rollup plugins) recognise it and emit the file as a hashed same-origin asset,
 * which a `script-src 'self'` CSP allows (a blob: or data: module would be refused).
 * `?no-inline` keeps Vite from inlining a small file as a data: URL (Vite drops the query
 * from the emitted asset's URL); without a bundler the query is harmless.
 */

export interface WorkletUrls {
  capture: URL;
  playback: URL;
}

/** The worklet modules next to this module, or under `baseUrl` when given. */
export function workletUrls(baseUrl?: string | URL): WorkletUrls {
  if (baseUrl !== undefined) {
    const base = withTrailingSlash(baseUrl);
    return {
      capture: new URL('capture-worklet.js', base),
      playback: new URL('playback-worklet.js', base),
    };
  }
  return {
    capture: new URL('./worklets/capture-worklet.js?no-inline', import.meta.url),
    playback: new URL('./worklets/playback-worklet.js?no-inline', import.meta.url),
  };
}

function withTrailingSlash(base: string | URL): URL {
  const text = String(base);
  const origin = typeof location === 'undefined' ? undefined : location.href;
  return new URL(text.endsWith('/') ? text : `${text}/`, origin);
}
