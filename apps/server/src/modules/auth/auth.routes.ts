import { messageResponse, signinBody, signinResponse, signupBody, verifyEmailParams } from '@inkwell/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** E-mail sign-up, verification and sign-in (SPEC.md 7). Handlers only translate HTTP. */
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { auth } = app.services;

  app.post('/signup', { schema: { body: signupBody, response: { 201: messageResponse } } }, async (request, reply) => {
    const result = await auth.signup(request.body, request.ip);
    return reply.status(result.created ? 201 : 201).send({ success: true, message: result.message });
  });

  app.get(
    '/verify-email/:verificationToken',
    { schema: { params: verifyEmailParams, response: { 200: messageResponse } } },
    async (request) => {
      const message = await auth.verifyEmail(request.params.verificationToken);
      return { success: true, message };
    },
  );

  app.post('/signin', { schema: { body: signinBody, response: { 200: signinResponse } } }, async (request) => {
    const { message, user } = await auth.signin(request.body, request.ip);
    return { success: true as const, message, user };
  });

  /** The current session user with a fresh token (used to refresh the stored session). */
  app.get(
    '/me',
    { onRequest: app.authenticate, schema: { response: { 200: z.object({ success: z.literal(true), user: signinResponse.shape.user }) } } },
    async (request) => {
      return { success: true as const, user: await auth.currentSession(request.user!.id) };
    },
  );

  /** Logout everywhere: every token issued before now stops working. */
  app.post('/signout-everywhere', { onRequest: app.authenticate, schema: { response: { 200: messageResponse } } }, async (request) => {
    await auth.revokeAllSessions(request.user!.id);
    return { success: true, message: 'Signed out on every device' };
  });
};
