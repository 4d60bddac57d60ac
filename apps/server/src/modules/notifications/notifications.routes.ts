import { NOTIFICATION_FILTERS } from '@inkwell/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

const notification = z.object({
  _id: z.string(),
  type: z.string(),
  isRead: z.boolean(),
  createdAt: z.string(),
  message: z.string(),
  sender: z.object({ _id: z.string(), name: z.string(), username: z.string(), profilePic: z.string().nullable() }).nullable(),
  blog: z.object({ blogId: z.string(), title: z.string() }).nullable(),
  comment: z.object({ _id: z.string(), comment: z.string() }).nullable(),
});
const countReply = z.object({ success: z.literal(true), message: z.string(), unreadCount: z.number() });
const idParams = z.object({ id: z.uuid('Notification not found') });

/** Notifications (SPEC.md 7); every call is the recipient's own. */
export const notificationsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { notifications } = app.services;
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/notifications',
    {
      schema: {
        querystring: z.object({
          page: z.coerce.number().int().min(1).max(10_000).default(1),
          limit: z.coerce.number().int().min(1).max(50).default(20),
          filter: z.enum(NOTIFICATION_FILTERS).default('all'),
        }),
        response: {
          200: z.object({ success: z.literal(true), notifications: z.array(notification), unreadCount: z.number(), hasMore: z.boolean() }),
        },
      },
    },
    async (request) => {
      const { page, limit, filter } = request.query;
      return { success: true as const, ...(await notifications.list(request.user!.id, filter, page, limit)) };
    },
  );

  app.patch(
    '/notifications/mark-read',
    { config: { rateLimit: 'notification' }, schema: { response: { 200: countReply } } },
    async (request) => ({
      success: true as const,
      message: 'All notifications marked as read',
      unreadCount: await notifications.markAllRead(request.user!.id),
    }),
  );

  app.patch(
    '/notifications/:id/read',
    { config: { rateLimit: 'notification' }, schema: { params: idParams, response: { 200: countReply } } },
    async (request) => ({
      success: true as const,
      message: 'Marked Read Successfully',
      unreadCount: await notifications.markRead(request.user!.id, request.params.id),
    }),
  );

  app.delete(
    '/notifications/:id',
    { config: { rateLimit: 'notification' }, schema: { params: idParams, response: { 200: countReply } } },
    async (request) => ({
      success: true as const,
      message: 'Notification deleted',
      unreadCount: await notifications.remove(request.user!.id, request.params.id),
    }),
  );

  app.delete('/notifications', { config: { rateLimit: 'notification' }, schema: { response: { 200: countReply } } }, async (request) => ({
    success: true as const,
    message: 'All notifications cleared',
    unreadCount: await notifications.removeAll(request.user!.id),
  }));
};
