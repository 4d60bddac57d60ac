export const NOTIFICATION_TYPES = ['like', 'comment', 'comment-like', 'follow', 'reply', 'blog-update', 'other'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

const TEXTS: Record<Exclude<NotificationType, 'other'>, string> = {
  like: 'liked your post',
  comment: 'commented on your post',
  'comment-like': 'liked your comment',
  follow: 'started following you',
  reply: 'replied to your comment',
  'blog-update': 'updated their post',
};

/** What a notification says after the sender's name (SPEC.md 3). */
export function notificationText(type: string, message?: string | null): string {
  if (type in TEXTS) return TEXTS[type as keyof typeof TEXTS];
  return message || 'sent you a notification';
}
