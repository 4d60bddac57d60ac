import { NOTIFICATION_MESSAGES, notificationListQuery, notificationListResponse, unreadCountResponse } from '@inkwell/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

const idParams = z.object({ id: z.uuid('Notification not found') });

/** Notifications (SPEC.md 7); every call is the recipient's own. */
export const notificationsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { notifications } = app.services;
  // On each route, not as the plugin's hook: the OpenAPI document reads a route's own hooks to
  // mark it as needing a token (a plugin hook left these five documented as open).
  const onRequest = app.authenticate;

  app.get(
    '/notifications',
    {
      onRequest,
      schema: {
        querystring: notificationListQuery,
        response: { 200: notificationListResponse },
      },
    },
    async (request) => {
      const { page, limit, filter, cursor } = request.query;
      return { success: true as const, ...(await notifications.list(request.user!.id, filter, page, limit, cursor)) };
    },
  );

  app.patch(
    '/notifications/mark-read',
    { onRequest, config: { rateLimit: 'notification' }, schema: { response: { 200: unreadCountResponse } } },
    async (request) => ({
      success: true as const,
      message: NOTIFICATION_MESSAGES.allMarkedRead,
      unreadCount: await notifications.markAllRead(request.user!.id),
    }),
  );

  app.patch(
    '/notifications/:id/read',
    { onRequest, config: { rateLimit: 'notification' }, schema: { params: idParams, response: { 200: unreadCountResponse } } },
    async (request) => ({
      success: true as const,
      message: NOTIFICATION_MESSAGES.markedRead,
      unreadCount: await notifications.markRead(request.user!.id, request.params.id),
    }),
  );

  app.delete(
    '/notifications/:id',
    { onRequest, config: { rateLimit: 'notification' }, schema: { params: idParams, response: { 200: unreadCountResponse } } },
    async (request) => ({
      success: true as const,
      message: NOTIFICATION_MESSAGES.deleted,
      unreadCount: await notifications.remove(request.user!.id, request.params.id),
    }),
  );

  app.delete(
    '/notifications',
    { onRequest, config: { rateLimit: 'notification' }, schema: { response: { 200: unreadCountResponse } } },
    async (request) => ({
      success: true as const,
      message: NOTIFICATION_MESSAGES.cleared,
      unreadCount: await notifications.removeAll(request.user!.id),
    }),
  );
};
