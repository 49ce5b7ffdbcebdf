/**
 * Write-only fields inside JSON documents (an assistant's `serverUrlSecret`, a
 * credential's `apiKey`). They are split off before storing, sealed separately, joined back
 * for the code that needs them, and masked in every answer.
 */

type Json = Record<string, unknown>;

const MASK = '••••';

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function walk(body: Json, path: string): { parent: Json; key: string } | null {
  const keys = path.split('.');
  let parent: unknown = body;
  for (const key of keys.slice(0, -1)) {
    if (!isObject(parent)) return null;
    parent = parent[key];
  }
  return isObject(parent) ? { parent, key: keys[keys.length - 1]! } : null;
}

/** A deep copy without the secret paths, and the secrets (string values only) by path. */
export function splitSecrets(
  body: Json,
  paths: readonly string[],
): { open: Json; secrets: Record<string, string> } {
  const open = structuredClone(body);
  const secrets: Record<string, string> = {};
  for (const path of paths) {
    const at = walk(open, path);
    if (at === null || !(at.key in at.parent)) continue;
    const value = at.parent[at.key];
    if (typeof value === 'string') secrets[path] = value;
    delete at.parent[at.key];
  }
  return { open, secrets };
}

/**
 * `body` with the value at `keys` replaced by `update(current)`. Only the objects along the
 * path are copied (shallowly); everything else is shared with `body`, which is not changed.
 * A missing path is created when `create` is set and otherwise leaves `body` as it is.
 */
function updateAt(
  body: Json,
  keys: readonly string[],
  update: (current: unknown) => unknown,
  create: boolean,
): Json {
  const [key, ...rest] = keys;
  if (key === undefined) return body;
  if (rest.length === 0) {
    if (!create && !(key in body)) return body;
    return { ...body, [key]: update(body[key]) };
  }
  const child = body[key];
  if (!isObject(child) && !create) return body;
  return { ...body, [key]: updateAt(isObject(child) ? child : {}, rest, update, create) };
}

/**
 * The document with its secrets put back (the inverse of splitSecrets). Copies only the
 * objects on the secrets' paths: this runs for every document a list reads.
 */
export function joinSecrets(open: Json, secrets: Record<string, string>): Json {
  let body = open;
  for (const [path, value] of Object.entries(secrets))
    body = updateAt(body, path.split('.'), () => value, true);
  return body;
}

/** `••••` and, for values long enough to spare them, the last four characters. */
export function mask(value: string): string {
  return value.length >= 12 ? `${MASK}${value.slice(-4)}` : MASK;
}

/**
 * The document with every secret path that holds a string masked. `body` is not changed;
 * only the objects on those paths are copied (every answer that shows a resource runs this).
 */
export function maskSecrets<T extends Json>(body: T, paths: readonly string[]): T {
  let masked: Json = body;
  for (const path of paths)
    masked = updateAt(
      masked,
      path.split('.'),
      (value) => (typeof value === 'string' ? mask(value) : value),
      false,
    );
  return masked as T;
}

/**
 * A client that reads a resource and sends it back unchanged sends masked secrets. Where
 * an incoming secret is a mask (starts with ••••), the stored value is kept instead.
 */
export function restoreMaskedSecrets(incoming: Json, stored: Json, paths: readonly string[]): Json {
  const body = structuredClone(incoming);
  for (const path of paths) {
    const at = walk(body, path);
    const value = at?.parent[at.key];
    if (at === null || typeof value !== 'string' || !value.startsWith(MASK)) continue;
    const kept = walk(stored, path);
    const storedValue = kept?.parent[kept.key];
    if (typeof storedValue === 'string') at.parent[at.key] = storedValue;
    else delete at.parent[at.key];
  }
  return body;
}
