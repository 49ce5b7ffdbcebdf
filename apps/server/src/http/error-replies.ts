import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ApiError } from '@talkbooth/protocol';
import { DATABASE_UNAVAILABLE, isDatabaseUnavailable } from '../db/unavailable-errors.js';
import { HttpProblem } from './problems.js';
import { validationProblem } from './validation-problems.js';

export const BODY_LIMIT_BYTES = 64 * 1024;

/** The one error shape of every API answer: `{statusCode, error, message, fields?}`. */
export function errorBody(
  statusCode: number,
  message: string,
  fields?: Record<string, string>,
): ApiError {
  return {
    statusCode,
    error: STATUS_CODES[statusCode] ?? 'Error',
    message,
    ...(fields === undefined ? {} : { fields }),
  };
}

export function sendError(
  reply: FastifyReply,
  statusCode: number,
  message: string,
  fields?: Record<string, string>,
): FastifyReply {
  return reply
    .code(statusCode)
    .type('application/json; charset=utf-8')
    .send(errorBody(statusCode, message, fields));
}

/** Messages a person can act on, for the errors Fastify raises before a handler runs. */
const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY:
    'The request body is not valid JSON. Check for a missing quote, comma or brace.',
  FST_ERR_CTP_EMPTY_JSON_BODY:
    'The request body is empty. Send a JSON object, or leave out the Content-Type header.',
  FST_ERR_CTP_BODY_TOO_LARGE: `The request body is larger than the ${BODY_LIMIT_BYTES / 1024} KiB limit.`,
  FST_ERR_CTP_INVALID_MEDIA_TYPE:
    'This content type is not accepted. Send the body as JSON with Content-Type: application/json.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH:
    'The Content-Length header does not match the body that was sent.',
  FST_CSRF_MISSING_SECRET:
    "This request needs the console's CSRF token: fetch GET /console/api/csrf, then send the token in the x-csrf-token header.",
  FST_CSRF_INVALID_TOKEN:
    'The CSRF token is missing or does not match. Reload the console page and try again.',
};

/**
 * The app-wide error handler. Validation problems become 400 with one message per field,
 * framework errors get a clear message, a database that does not answer is a 503 to retry,
 * and anything unexpected is logged and answered with a 500 that reveals nothing internal.
 */
export function handleError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  if (hasZodFastifySchemaValidationErrors(error)) {
    const problem = validationProblem(
      error.validation.map((issue) => ({ path: issue.instancePath, message: issue.message })),
    );
    return sendError(reply, 400, problem.message, problem.fields);
  }

  if (error instanceof HttpProblem) {
    return sendError(reply, error.statusCode, error.message, error.fields);
  }

  const statusCode = error.statusCode ?? 500;
  const known = error.code === undefined ? undefined : FRAMEWORK_MESSAGES[error.code];
  if (known !== undefined) return sendError(reply, statusCode, known);
  if (statusCode >= 400 && statusCode < 500) return sendError(reply, statusCode, error.message);

  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'request failed: the database does not answer');
    return sendError(reply, 503, DATABASE_UNAVAILABLE);
  }
  request.log.error({ err: error }, 'request failed');
  return sendError(reply, 500, 'Something went wrong on our side. Please try again in a moment.');
}

export function handleNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const path = request.url.split('?')[0] ?? request.url;
  return sendError(reply, 404, `There is nothing at ${request.method} ${path}. Check the address.`);
}
