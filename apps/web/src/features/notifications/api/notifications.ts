import type { NotificationFilter, NotificationListResponse, NotificationView, UnreadCountResponse } from '@inkwell/core';
import { apiRequest } from '../../../lib/api';

/** A notification as GET /notifications lists it (the shape is defined once, in packages/core). */
export type Notification = NotificationView;
export type NotificationsResponse = NotificationListResponse;
/** Every change answers with the recipient's fresh unread count. */
export type CountResponse = UnreadCountResponse;

export interface NotificationsQuery {
  limit: number;
  /** The previous page's nextCursor; without it, the first page. */
  cursor?: string;
  filter?: NotificationFilter;
}

/** GET /notifications?limit=&cursor=&filter= → {notifications, unreadCount, hasMore, nextCursor}. */
export function fetchNotifications(query: NotificationsQuery, signal?: AbortSignal): Promise<NotificationsResponse> {
  return apiRequest<NotificationsResponse>('/notifications', { query: { ...query }, signal });
}

/** PATCH /notifications/mark-read: all read. */
export const markAllNotificationsRead = () => apiRequest<CountResponse>('/notifications/mark-read', { method: 'PATCH' });

/** PATCH /notifications/{id}/read. */
export const markNotificationRead = (id: string) =>
  apiRequest<CountResponse>(`/notifications/${encodeURIComponent(id)}/read`, { method: 'PATCH' });

/** DELETE /notifications/{id}. */
export const deleteNotification = (id: string) =>
  apiRequest<CountResponse>(`/notifications/${encodeURIComponent(id)}`, { method: 'DELETE' });

/** DELETE /notifications: all cleared. */
export const clearNotifications = () => apiRequest<CountResponse>('/notifications', { method: 'DELETE' });

/** A realtime payload is trusted only when it has the fields the list renders. */
export function isNotification(value: unknown): value is Notification {
  if (!value || typeof value !== 'object') return false;
  const n = value as Record<string, unknown>;
  return typeof n._id === 'string' && typeof n.type === 'string' && typeof n.createdAt === 'string' && typeof n.isRead === 'boolean';
}

/** Which list filters a notification belongs to (the server's grouping: Likes include comment likes, Comments include replies). */
export function matchesFilter(n: Notification, filter: NotificationFilter): boolean {
  switch (filter) {
    case 'all':
      return true;
    case 'unread':
      return !n.isRead;
    case 'like':
      return n.type === 'like' || n.type === 'comment-like';
    case 'comment':
      return n.type === 'comment' || n.type === 'reply';
    case 'follow':
      return n.type === 'follow';
  }
}

/** Where a notification leads: its blog, else the sender's profile. */
export function notificationHref(n: Notification): string {
  if (n.blog) return `/blog/${encodeURIComponent(n.blog.blogId)}`;
  if (n.sender) return `/@${n.sender.username}`;
  return '/notifications';
}
