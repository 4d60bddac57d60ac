import {
  digestSettingsBody,
  digestSettingsResponse,
  messageResponse,
  NEWSLETTER_MESSAGES,
  newsletterConfirmBody,
  newsletterSubscribeBody,
  newsletterTokenParams,
} from '@inkwell/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { formBody } from '../../lib/form-body';

/**
 * The newsletter (issue 16): subscribe (double opt-in), confirm, unsubscribe (one-click per
 * RFC 8058), and a signed-in reader's digest of the authors they follow.
 */
export const newsletterRoutes: FastifyPluginAsyncZod = async (app) => {
  const { newsletter } = app.services;

  // Mail clients POST the one-click unsubscribe as a form ('List-Unsubscribe=One-Click'); the body
  // says nothing the token does not, so it is read and ignored. Only this plugin accepts forms.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  app.post(
    '/newsletter/subscribe',
    {
      config: { rateLimit: 'newsletter', bodyMessages: 'as-written' },
      preValidation: formBody(),
      schema: { body: newsletterSubscribeBody, response: { 200: messageResponse } },
    },
    async (request) => {
      await newsletter.subscribe(request.body.email);
      return { success: true, message: NEWSLETTER_MESSAGES.subscribed };
    },
  );

  app.post(
    '/newsletter/confirm',
    {
      config: { rateLimit: 'newsletter-link', bodyMessages: 'as-written' },
      preValidation: formBody(),
      schema: { body: newsletterConfirmBody, response: { 200: messageResponse } },
    },
    async (request) => {
      await newsletter.confirm(request.body.token);
      return { success: true, message: NEWSLETTER_MESSAGES.confirmed };
    },
  );

  // The List-Unsubscribe address. POST unsubscribes at once (one-click, no confirmation); a GET
  // (someone opened the header's link) goes to the page that asks with a button.
  app.post(
    '/newsletter/unsubscribe/:token',
    { config: { rateLimit: 'newsletter-link' }, schema: { params: newsletterTokenParams, response: { 200: messageResponse } } },
    async (request) => {
      await newsletter.unsubscribe(request.params.token);
      return { success: true, message: NEWSLETTER_MESSAGES.unsubscribed };
    },
  );
  app.get(
    '/newsletter/unsubscribe/:token',
    {
      schema: {
        params: newsletterTokenParams,
        response: { 303: z.null().describe('See Other: the Location header is the page that asks to confirm with a button') },
      },
    },
    async (request, reply) => reply.redirect(`/newsletter/unsubscribe/${encodeURIComponent(request.params.token)}`, 303),
  );

  app.get('/digest-settings', { onRequest: app.authenticate, schema: { response: { 200: digestSettingsResponse } } }, async (request) => ({
    success: true as const,
    frequency: await newsletter.digestFrequency(request.user!.id),
  }));

  app.put(
    '/digest-settings',
    {
      config: { rateLimit: 'digest', bodyMessages: 'as-written' },
      onRequest: app.authenticate,
      preValidation: formBody(),
      schema: { body: digestSettingsBody, response: { 200: digestSettingsResponse } },
    },
    async (request) => {
      const saved = await newsletter.setDigestFrequency(request.user!.id, request.body.frequency);
      return { success: true as const, message: NEWSLETTER_MESSAGES.digestSaved, frequency: saved };
    },
  );
};
