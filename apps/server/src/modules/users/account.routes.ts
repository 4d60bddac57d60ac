import { changePasswordBody, messageResponse, USER_MESSAGES, visibilityBody, visibilityResponse } from '@inkwell/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { formBody } from '../../lib/form-body';

/**
 * Settings (SPEC.md 2 Settings; 7): privacy of the profile tabs and the password. Deleting the
 * account is DELETE /users/{id} in users.routes.ts. The schemas' messages reach the client word for
 * word (bodyMessages 'as-written').
 */
export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  const { profileEdit, account } = app.services;

  app.patch(
    '/change-saved-liked-blog-visibility',
    {
      config: { rateLimit: 'profile', bodyMessages: 'as-written' },
      onRequest: app.authenticate,
      preValidation: formBody(),
      schema: { body: visibilityBody, response: { 200: visibilityResponse } },
    },
    async (request) => {
      const flags = await profileEdit.setVisibility(request.user!.id, request.body);
      return { success: true as const, message: USER_MESSAGES.visibilityUpdated, ...flags };
    },
  );

  app.patch(
    '/change-password',
    {
      config: { rateLimit: 'password', bodyMessages: 'as-written' },
      onRequest: app.authenticate,
      preValidation: formBody(),
      schema: { body: changePasswordBody, response: { 200: messageResponse } },
    },
    async (request) => {
      await account.changePassword(request.user!.id, request.body);
      return { success: true, message: USER_MESSAGES.passwordChanged };
    },
  );
};
