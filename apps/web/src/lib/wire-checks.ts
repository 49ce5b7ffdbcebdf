/**
 * Checks of the three server answers every visitor page reads: the client configuration, the
 * product's talk collection and the API's error body. Each is the same check as its zod schema
 * in @talkbooth/protocol (clientConfigSchema, talkCollectionSchema, apiErrorSchema), which
 * wire-checks.test.ts proves by running both over the same answers.
 *
 * Why not the schemas themselves: zod cannot be tree-shaken (one `z.object` brings all of it),
 * and it alone would be more than 20 kB gzipped of the code-entry page's 120 kB (issue 14),
 * even loaded lazily, since every visit reads these answers. The pages that load later anyway
 * (the booth's feedback, registration, the console) keep using the shared schemas.
 */
import type { ApiError, ClientConfig, TalkDocument } from '@talkbooth/protocol';

type JsonObject = Record<string, unknown>;

/** A JSON object (not an array, not null): what `z.object` accepts. */
function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isString = (value: unknown): value is string => typeof value === 'string';

/** `clientConfigSchema.parse`: the known fields only, or null when one is missing or wrong. */
export function parseClientConfig(value: unknown): ClientConfig | null {
  if (!isObject(value)) return null;
  const { product, productName, talkHomeUrl, platformBaseUrl, platformPublicKey } = value;
  if (
    !isString(product) ||
    !isString(productName) ||
    !isString(talkHomeUrl) ||
    !isString(platformBaseUrl) ||
    !(platformPublicKey === null || isString(platformPublicKey))
  ) {
    return null;
  }
  return { product, productName, talkHomeUrl, platformBaseUrl, platformPublicKey };
}

function isTalkDocument(value: unknown): value is TalkDocument {
  return (
    isObject(value) && isString(value.id) && (value.title === undefined || isString(value.title))
  );
}

/** `talkCollectionSchema.parse`: documents keep their other fields; null for anything else. */
export function parseTalkCollection(value: unknown): TalkDocument[] | null {
  if (!Array.isArray(value) || !value.every(isTalkDocument)) return null;
  return value.map((doc) => ({ ...doc }));
}

/** `isApiError`: recognises an error body without trusting it. */
export function isApiError(value: unknown): value is ApiError {
  if (!isObject(value)) return false;
  const { statusCode, error, message, fields } = value;
  return (
    Number.isSafeInteger(statusCode) &&
    isString(error) &&
    isString(message) &&
    (fields === undefined || (isObject(fields) && Object.values(fields).every(isString)))
  );
}
