import {
  AUTH_MESSAGES,
  errorResponse,
  forgotPasswordBody,
  messageResponse,
  resetPasswordBody,
  signinBody,
  signinResponse,
  signupBody,
  verifyEmailParams,
} from '@inkwell/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** E-mail sign-up, verification, sign-in and password reset (SPEC.md 7). Handlers only translate HTTP. */
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { auth, passwordReset } = app.services;

  app.post(
    '/signup',
    { config: { rateLimit: 'signup' }, schema: { body: signupBody, response: { 201: messageResponse } } },
    async (request, reply) => {
      const { message } = await auth.signup(request.body);
      return reply.status(201).send({ success: true, message });
    },
  );

  app.get(
    '/verify-email/:verificationToken',
    { config: { rateLimit: 'confirm-link' }, schema: { params: verifyEmailParams, response: { 200: messageResponse } } },
    async (request) => {
      const message = await auth.verifyEmail(request.params.verificationToken);
      return { success: true, message };
    },
  );

  app.post(
    '/signin',
    {
      config: { rateLimit: 'signin' },
      schema: { body: signinBody, response: { 200: signinResponse, 401: errorResponse.describe('Wrong email or password') } },
    },
    async (request) => {
      const { message, user } = await auth.signin(request.body, request.ip);
      return { success: true as const, message, user };
    },
  );

  app.post(
    '/forgot-password',
    { config: { rateLimit: 'forgot-password' }, schema: { body: forgotPasswordBody, response: { 200: messageResponse } } },
    async (request) => ({ success: true, message: await passwordReset.requestReset(request.body.email) }),
  );

  app.post(
    '/reset-password',
    { config: { rateLimit: 'reset-password' }, schema: { body: resetPasswordBody, response: { 200: messageResponse } } },
    async (request) => ({ success: true, message: await passwordReset.resetPassword(request.body) }),
  );

  /** The current session user with a fresh token (used to refresh the stored session). */
  app.get(
    '/me',
    { onRequest: app.authenticate, schema: { response: { 200: z.object({ success: z.literal(true), user: signinResponse.shape.user }) } } },
    async (request) => {
      return { success: true as const, user: await auth.currentSession(request.user!.id) };
    },
  );

  /** Logout everywhere: every token issued before now stops working. */
  app.post(
    '/signout-everywhere',
    { config: { rateLimit: 'signout-everywhere' }, onRequest: app.authenticate, schema: { response: { 200: messageResponse } } },
    async (request) => {
      await auth.revokeAllSessions(request.user!.id);
      return { success: true, message: AUTH_MESSAGES.signedOutEverywhere };
    },
  );
};
