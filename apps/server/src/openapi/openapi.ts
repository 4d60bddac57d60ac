import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { errorResponse } from '@inkwell/core';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type CspDirectives, contentSecurityPolicy } from '../lib/security-headers';

/** The documented API: every route under this prefix, nothing else (web app, uploads, feeds). */
export const API_PREFIX = '/api/v1';
export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;
export const DOCS_PATH = '/api/docs';

type Hook = RouteOptions['onRequest'];
const hooksOf = (hook: Hook): unknown[] => (Array.isArray(hook) ? hook : hook ? [hook] : []);

/**
 * Generates an OpenAPI 3.1 document from the route schemas (@fastify/swagger with the zod type
 * provider's transform) and serves it at /api/v1/openapi.json, with Swagger UI at /api/docs.
 * Registered before the routes: @fastify/swagger collects them as they are added.
 */
export async function registerOpenApi(app: FastifyInstance, publicUrl: string, directives: CspDirectives): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Inkwell API',
        version: '1',
        description:
          'The blogging platform API. Errors answer `{ success: false, message }`. Send `Authorization: Bearer <token>` (from sign-in) where a route lists bearerAuth.',
      },
      servers: [{ url: publicUrl }],
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: (document) => {
      const { url, route } = document;
      if (!url.startsWith(`${API_PREFIX}/`)) return { schema: { hide: true } as never, url };
      const schema = { ...(document.schema ?? {}) } as Record<string, unknown>;
      const hooks = hooksOf(route.onRequest);
      const requiresToken = hooks.includes(app.authenticate);
      const acceptsToken = hooks.includes(app.identify);
      const rateLimited = Boolean((route.config as { rateLimit?: unknown } | undefined)?.rateLimit);
      const takesInput = Boolean(schema.body || schema.querystring || schema.params);
      schema.response = {
        ...((schema.response as object | undefined) ?? { 200: z.unknown() }),
        ...(takesInput ? { 400: errorResponse.describe('Invalid input') } : {}),
        ...(requiresToken ? { 401: errorResponse.describe('Missing, invalid or expired token') } : {}),
        // Fastify refuses a body it has no parser for before the route runs (lib/error-handler.ts).
        ...(schema.body ? { 415: errorResponse.describe('Unsupported content type (send one of the requestBody types)') } : {}),
        ...(rateLimited ? { 429: errorResponse.describe('Too many requests; see Retry-After') } : {}),
        default: errorResponse.describe('Error (403 not yours, 404 missing, 409 conflict, 413 too large, 500)'),
      };
      if (requiresToken) schema.security = [{ bearerAuth: [] }];
      else if (acceptsToken) schema.security = [{ bearerAuth: [] }, {}];
      return jsonSchemaTransform({ ...document, schema: schema as never });
    },
    transformObject: jsonSchemaTransformObject,
  });

  app.get(OPENAPI_PATH, async () => app.swagger());

  // Swagger UI's files come from its package (no CDN). Its pages get a CSP of their own (set by
  // the plugin on its routes only): its icons are data: images, and it calls nothing but us.
  const docsCsp = contentSecurityPolicy({
    ...directives,
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    frameSrc: ["'none'"],
  });
  await app.register(swaggerUi, {
    routePrefix: DOCS_PATH,
    uiConfig: { deepLinking: true, defaultModelsExpandDepth: 0 },
    validatorUrl: false,
    transformStaticCSP: () => docsCsp,
  });
}
