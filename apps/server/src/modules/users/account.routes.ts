import { changePasswordBody, deleteAccountBody, messageResponse, USER_MESSAGES, visibilityBody, visibilityResponse } from '@inkwell/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { parseInput } from './users.input';

const idParams = z.object({ id: z.string().min(1).max(64) });

/**
 * Settings and account (SPEC.md 2 Settings; 7). Bodies are validated in the handler with
 * parseInput so the spec's messages reach the client word for word.
 */
export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  const { profileEdit, account } = app.services;

  app.patch(
    '/change-saved-liked-blog-visibility',
    { config: { rateLimit: 'profile' }, onRequest: app.authenticate, schema: { response: { 200: visibilityResponse } } },
    async (request) => {
      const flags = await profileEdit.setVisibility(request.user!.id, parseInput(visibilityBody, request.body));
      return { success: true as const, message: USER_MESSAGES.visibilityUpdated, ...flags };
    },
  );

  app.patch(
    '/change-password',
    { config: { rateLimit: 'password' }, onRequest: app.authenticate, schema: { response: { 200: messageResponse } } },
    async (request) => {
      await account.changePassword(request.user!.id, parseInput(changePasswordBody, request.body));
      return { success: true, message: USER_MESSAGES.passwordChanged };
    },
  );

  app.delete(
    '/users/:id',
    { config: { rateLimit: 'password' }, onRequest: app.authenticate, schema: { params: idParams, response: { 200: messageResponse } } },
    async (request) => {
      await account.deleteAccount(request.user!.id, request.params.id, parseInput(deleteAccountBody, request.body));
      return { success: true, message: USER_MESSAGES.accountDeleted };
    },
  );
};
