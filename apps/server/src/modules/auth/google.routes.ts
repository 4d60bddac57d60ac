import { signinResponse } from '@inkwell/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

export const googleAuthBody = z.object({
  /** The identity (ID) token from the issuer; named accessToken as in SPEC.md 7. */
  accessToken: z.string({ error: 'accessToken is required' }).min(1, 'accessToken is required').max(16_384),
});

const configResponse = z.object({
  enabled: z.boolean(),
  clientId: z.string().optional(),
  authorizationEndpoint: z.string().optional(),
});

/** Google sign-in through OpenID Connect (SPEC.md 2 Auth screen, 7 POST /google-auth). */
export const googleAuthRoutes: FastifyPluginAsyncZod = async (app) => {
  const { google } = app.services;

  app.get('/google-auth/config', { schema: { response: { 200: configResponse } } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return google.publicConfig();
  });

  app.get(
    '/google-auth/nonce',
    { schema: { response: { 200: z.object({ nonce: z.string(), expiresIn: z.number() }) } } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return google.issueNonce();
    },
  );

  app.post(
    '/google-auth',
    { config: { rateLimit: 'google' }, schema: { body: googleAuthBody, response: { 200: signinResponse } } },
    async (request) => {
      const { message, user } = await google.signIn(request.body.accessToken, request.ip);
      return { success: true as const, message, user };
    },
  );
};
