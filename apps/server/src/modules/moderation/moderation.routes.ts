import {
  auditLogResponse,
  createReportBody,
  createReportResponse,
  dismissReportBody,
  hiddenListQuery,
  hiddenListResponse,
  messageResponse,
  moderationPageQuery,
  moderationReasonBody,
  REPORT_MESSAGES,
  reportQueueResponse,
  roleBody,
} from '@inkwell/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { formBody } from '../../lib/form-body';

/** Ids are checked by the services (an unknown or malformed one is a 404 there, after the 403 for non-moderators). */
const id = z.string().min(1).max(120);

/**
 * POST /reports and /moderation/* (issue 15). Handlers only translate HTTP: the services check
 * the role (403), find the item (404) and write the action with its audit row.
 */
export const moderationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { reports, moderation } = app.services;
  const write = { rateLimit: 'moderation' as const, bodyMessages: 'as-written' as const };

  app.post(
    '/reports',
    {
      config: { rateLimit: 'report', bodyMessages: 'as-written' },
      onRequest: app.authenticate,
      preValidation: formBody(),
      schema: { body: createReportBody, response: { 201: createReportResponse } },
    },
    async (request, reply) => {
      const report = await reports.create(request.user!.id, request.body);
      return reply.status(201).send({ success: true as const, message: REPORT_MESSAGES.sent, report });
    },
  );

  app.get(
    '/moderation/reports',
    { onRequest: app.authenticate, schema: { querystring: moderationPageQuery, response: { 200: reportQueueResponse } } },
    async (request) => {
      await moderation.moderator(request.user!.id);
      return { success: true as const, ...(await reports.queue(request.query.cursor, request.query.limit)) };
    },
  );

  app.get(
    '/moderation/audit',
    { onRequest: app.authenticate, schema: { querystring: moderationPageQuery, response: { 200: auditLogResponse } } },
    async (request) => {
      await moderation.moderator(request.user!.id);
      return { success: true as const, ...(await moderation.auditLog(request.query.cursor, request.query.limit)) };
    },
  );

  app.get(
    '/moderation/hidden',
    { onRequest: app.authenticate, schema: { querystring: hiddenListQuery, response: { 200: hiddenListResponse } } },
    async (request) => {
      await moderation.moderator(request.user!.id);
      const { kind, cursor, limit } = request.query;
      return { success: true as const, ...(await moderation.hiddenList(kind, cursor, limit)) };
    },
  );

  app.post(
    '/moderation/reports/:reportId/dismiss',
    {
      config: write,
      onRequest: app.authenticate,
      preValidation: formBody(),
      schema: { params: z.object({ reportId: id }), body: dismissReportBody, response: { 200: messageResponse } },
    },
    async (request) => {
      const actor = await moderation.moderator(request.user!.id);
      return { success: true, message: await moderation.dismiss(actor, request.params.reportId, request.body.reason || null) };
    },
  );

  for (const [segment, on] of [
    ['hide', true],
    ['restore', false],
  ] as const) {
    app.post(
      `/moderation/posts/:blogId/${segment}`,
      {
        config: write,
        onRequest: app.authenticate,
        preValidation: formBody(),
        schema: { params: z.object({ blogId: id }), body: moderationReasonBody, response: { 200: messageResponse } },
      },
      async (request) => {
        const actor = await moderation.moderator(request.user!.id);
        return { success: true, message: await moderation.setPostHidden(actor, request.params.blogId, on, request.body.reason) };
      },
    );
    app.post(
      `/moderation/comments/:commentId/${segment}`,
      {
        config: write,
        onRequest: app.authenticate,
        preValidation: formBody(),
        schema: { params: z.object({ commentId: id }), body: moderationReasonBody, response: { 200: messageResponse } },
      },
      async (request) => {
        const actor = await moderation.moderator(request.user!.id);
        return { success: true, message: await moderation.setCommentHidden(actor, request.params.commentId, on, request.body.reason) };
      },
    );
  }

  for (const [segment, on] of [
    ['suspend', true],
    ['unsuspend', false],
  ] as const) {
    app.post(
      `/moderation/users/:userId/${segment}`,
      {
        config: write,
        onRequest: app.authenticate,
        preValidation: formBody(),
        schema: { params: z.object({ userId: id }), body: moderationReasonBody, response: { 200: messageResponse } },
      },
      async (request) => {
        const actor = await moderation.moderator(request.user!.id);
        return { success: true, message: await moderation.setSuspended(actor, request.params.userId, on, request.body.reason) };
      },
    );
  }

  app.put(
    '/moderation/users/:userId/role',
    {
      config: write,
      onRequest: app.authenticate,
      preValidation: formBody(),
      schema: { params: z.object({ userId: id }), body: roleBody, response: { 200: messageResponse } },
    },
    async (request) => {
      const actor = await moderation.moderator(request.user!.id);
      return { success: true, message: await moderation.setRole(actor, request.params.userId, request.body.role) };
    },
  );
};
