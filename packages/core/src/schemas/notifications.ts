import { z } from 'zod';
import { NOTIFICATION_FILTERS } from '../constants';
import { queryWholeNumber } from './common';

/** A notification of SPEC.md section 3 as GET /notifications and the realtime event carry it. */
export const notificationSchema = z.object({
  _id: z.string(),
  type: z.string(),
  isRead: z.boolean(),
  createdAt: z.string(),
  /** The text the UI shows after the sender's name. */
  message: z.string(),
  sender: z.object({ _id: z.string(), name: z.string(), username: z.string(), profilePic: z.string().nullable() }).nullable(),
  blog: z.object({ blogId: z.string(), title: z.string() }).nullable(),
  comment: z.object({ _id: z.string(), comment: z.string() }).nullable(),
});
export type NotificationView = z.infer<typeof notificationSchema>;

export const notificationListQuery = z.object({
  page: queryWholeNumber(1, 10_000, 1),
  /**
   * The previous page's nextCursor: the page after its last item, wherever that item is now
   * (page numbers skip items when earlier ones are deleted or leave the Unread filter). Wins over page.
   */
  cursor: z.string().max(200).optional(),
  limit: queryWholeNumber(1, 50, 20),
  filter: z.enum(NOTIFICATION_FILTERS).default('all'),
});

export const notificationListResponse = z.object({
  success: z.literal(true),
  notifications: z.array(notificationSchema),
  unreadCount: z.number(),
  hasMore: z.boolean(),
  /** Ask for the next page with it (`cursor=`); null when there is no more. */
  nextCursor: z.string().nullable(),
});
export type NotificationListResponse = z.infer<typeof notificationListResponse>;

/** Every change answers with the recipient's fresh unread count. */
export const unreadCountResponse = z.object({ success: z.literal(true), message: z.string(), unreadCount: z.number() });
export type UnreadCountResponse = z.infer<typeof unreadCountResponse>;
