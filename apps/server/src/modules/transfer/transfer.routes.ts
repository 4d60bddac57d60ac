import { messageResponse, transferBody, transferConfirmResponse } from '@inkwell/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { formBody } from '../../lib/form-body';

const confirmParams = z.object({ action: z.string(), token: z.string() });

/** Account transfer (SPEC.md 7 POST /transfer-account, GET /confirm-transfer/{action}/{token}). */
export const transferRoutes: FastifyPluginAsyncZod = async (app) => {
  const { transfer } = app.services;

  app.post(
    '/transfer-account',
    {
      // The spec's messages ('Recipient email is required') arrive as written.
      config: { rateLimit: 'transfer', bodyMessages: 'as-written' },
      onRequest: app.authenticate,
      preValidation: formBody(),
      schema: { body: transferBody, response: { 200: messageResponse } },
    },
    async (request) => {
      const message = await transfer.request(request.user!.id, request.body);
      return { success: true, message };
    },
  );

  /** Public: the link in the recipient's mailbox is the proof of consent. */
  app.get(
    '/confirm-transfer/:action/:token',
    { config: { rateLimit: 'confirm-link' }, schema: { params: confirmParams, response: { 200: transferConfirmResponse } } },
    async (request) => ({ success: true as const, ...(await transfer.confirm(request.params.action, request.params.token)) }),
  );
};
