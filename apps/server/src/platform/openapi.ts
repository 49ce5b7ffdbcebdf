import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

export const PLATFORM_PREFIX = '/platform';

/**
 * Collects the platform routes' zod schemas into an OpenAPI 3.1 document (served at
 * /platform/openapi.json). Must be registered before the routes. Paths are relative to
 * the server URL `/platform`, as on the hosted platform.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Talkbooth platform API',
        version: '1.0.0',
        description:
          'Assistants, calls, credentials, phone numbers, metrics and access codes. Wire-compatible with the hosted voice platform’s 2024 REST API; access codes are a Talkbooth extension.',
      },
      servers: [{ url: PLATFORM_PREFIX }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform(args) {
      if (
        !args.url.startsWith(`${PLATFORM_PREFIX}/`) ||
        args.url === `${PLATFORM_PREFIX}/openapi.json`
      ) {
        return { schema: { ...args.schema, hide: true }, url: args.url };
      }
      const transformed = jsonSchemaTransform(args);
      return { ...transformed, url: transformed.url.slice(PLATFORM_PREFIX.length) };
    },
    transformObject: jsonSchemaTransformObject,
  });
}
