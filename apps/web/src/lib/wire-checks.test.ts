import {
  apiErrorSchema,
  clientConfigSchema,
  isApiError as schemaIsApiError,
  talkCollectionSchema,
} from '@talkbooth/protocol';
import { describe, expect, it } from 'vitest';
import { isApiError, parseClientConfig, parseTalkCollection } from './wire-checks';

/** What the zod schema makes of `value`: its output, or null when it refuses. */
function bySchema(schema: { safeParse(value: unknown): { success: boolean; data?: unknown } }) {
  return (value: unknown) => {
    const result = schema.safeParse(value);
    return result.success ? result.data : null;
  };
}

const NOT_OBJECTS: unknown[] = [null, undefined, 'x', 42, true, [], [{}]];

const CONFIG = {
  product: 'medibrief',
  productName: 'medibrief',
  talkHomeUrl: '/',
  platformBaseUrl: '/platform',
  platformPublicKey: 'pk-1',
};

const CONFIGS: unknown[] = [
  ...NOT_OBJECTS,
  CONFIG,
  { ...CONFIG, platformPublicKey: null },
  { ...CONFIG, extra: 'dropped', nested: { a: 1 } },
  { ...CONFIG, product: '' },
  { ...CONFIG, platformPublicKey: undefined },
  { ...CONFIG, platformPublicKey: 7 },
  { ...CONFIG, productName: null },
  { ...CONFIG, talkHomeUrl: ['/'] },
  { ...CONFIG, platformBaseUrl: undefined },
  Object.fromEntries(Object.entries(CONFIG).filter(([key]) => key !== 'product')),
  {},
];

const DOCUMENTS: unknown[] = [
  ...NOT_OBJECTS.filter((value) => !Array.isArray(value)),
  [],
  [{ id: 'product', title: 'Riverside Clinic', tagline: 'Hello', support: 'a@b.example' }],
  [{ id: 'faq' }, { id: 'product', extra: { deep: [1, 2] } }],
  [{ id: 'product', title: 7 }],
  [{ id: 'product', title: null }],
  [{ id: 7 }],
  [{ title: 'no id' }],
  [null],
  [['product']],
  [{ id: 'ok' }, 'not a document'],
  { 0: { id: 'product' }, length: 1 },
];

const ERROR = { statusCode: 429, error: 'Too Many Requests', message: 'Slow down.' };

const ERRORS: unknown[] = [
  ...NOT_OBJECTS,
  ERROR,
  { ...ERROR, fields: {} },
  { ...ERROR, fields: { email: 'Enter an e-mail address.', 'model.temperature': 'Too hot.' } },
  { ...ERROR, extra: true },
  { ...ERROR, fields: { email: 7 } },
  { ...ERROR, fields: ['email'] },
  { ...ERROR, fields: null },
  { ...ERROR, statusCode: 429.5 },
  { ...ERROR, statusCode: '429' },
  { ...ERROR, statusCode: Number.MAX_SAFE_INTEGER + 1 },
  { ...ERROR, statusCode: Number.NaN },
  { ...ERROR, error: undefined },
  { ...ERROR, message: null },
  { statusCode: 500, message: 'no error name' },
];

describe('the wire checks agree with the shared zod schemas', () => {
  it.each(CONFIGS.map((value) => [JSON.stringify(value) ?? String(value), value]))(
    'client config %s',
    (_label, value) => {
      expect(parseClientConfig(value)).toEqual(bySchema(clientConfigSchema)(value));
    },
  );

  it.each(DOCUMENTS.map((value) => [JSON.stringify(value) ?? String(value), value]))(
    'talk collection %s',
    (_label, value) => {
      expect(parseTalkCollection(value)).toEqual(bySchema(talkCollectionSchema)(value));
    },
  );

  it.each(ERRORS.map((value) => [JSON.stringify(value) ?? String(value), value]))(
    'error body %s',
    (_label, value) => {
      expect(isApiError(value)).toBe(schemaIsApiError(value));
      expect(isApiError(value)).toBe(apiErrorSchema.safeParse(value).success);
    },
  );

  it('accepts the answers the app sees in practice', () => {
    expect(parseClientConfig(CONFIG)).toEqual(CONFIG);
    expect(parseClientConfig({ ...CONFIG, extra: 1 })).toEqual(CONFIG);
    expect(parseTalkCollection([{ id: 'product', title: 'T' }])).toEqual([
      { id: 'product', title: 'T' },
    ]);
    expect(isApiError(ERROR)).toBe(true);
  });
});
