import type {
  ContextConfigDefault,
  FastifyReply,
  FastifySchema,
  FastifyTypeProviderDefault,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
} from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';

/**
 * How every answer with a response schema becomes JSON (app.ts sets it on the app): the
 * schema checks the value (a drift from the documented shape is a 500, not a wrong answer)
 * and gives it the schema's key order, then JSON.stringify. Code that serialises an answer
 * ahead of time (platform/answer-memo.ts) goes through the very same function, so its bytes
 * are the ones the route would have sent.
 */
export const answerSerializerCompiler = serializerCompiler;

declare const answerOf: unique symbol;

/**
 * The UTF-8 JSON of a value of type T, made by `checkedJson` (that is, checked against T's
 * schema) or joined from such by `jsonArray`. The type parameter is only a mark: it lets
 * `sendJsonAnswer` accept the bytes only for a route whose response is T.
 */
export type JsonAnswer<T> = Buffer & { readonly [answerOf]?: T };

/**
 * The JSON of `value` exactly as the route `method url` answers it when its response schema
 * is `schema`: checked, in the schema's key order, UTF-8; a value that does not match
 * throws the serialiser's ResponseSerializationError (a 500), as the route would.
 */
export function checkedJson<S extends z.ZodType>(
  schema: S,
  route: { method: string; url: string },
): (value: z.output<S>) => JsonAnswer<z.output<S>> {
  const serialize = answerSerializerCompiler({ schema, ...route });
  return (value) => Buffer.from(serialize(value), 'utf8');
}

/** Concatenates JSON texts into the JSON array of their values (what JSON.stringify gives). */
export function jsonArray<T>(items: readonly JsonAnswer<T>[]): JsonAnswer<T[]> {
  const parts: Buffer[] = [OPEN];
  let length = 2 + Math.max(items.length - 1, 0);
  items.forEach((item, index) => {
    if (index > 0) parts.push(COMMA);
    parts.push(item);
    length += item.length;
  });
  parts.push(CLOSE);
  return Buffer.concat(parts, length);
}

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/**
 * Sends JSON that is already serialised (and was checked against the route's schema when it
 * was made), with the headers Fastify's own serialiser would set. The route keeps its
 * response schema: it still documents the answer in the OpenAPI document.
 */
export function sendJsonAnswer<T>(
  reply: FastifyReply<
    RouteGenericInterface,
    RawServerDefault,
    RawRequestDefaultExpression,
    RawReplyDefaultExpression,
    ContextConfigDefault,
    FastifySchema,
    FastifyTypeProviderDefault,
    T
  >,
  answer: NoInfer<JsonAnswer<T>>,
): FastifyReply {
  return (reply as FastifyReply).type('application/json; charset=utf-8').send(answer);
}
