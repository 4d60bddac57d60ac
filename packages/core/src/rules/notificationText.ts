export const NOTIFICATION_TYPES = ['like', 'comment', 'comment-like', 'follow', 'reply', 'blog-update', 'moderation', 'other'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

const TEXTS: Record<Exclude<NotificationType, 'other' | 'moderation'>, string> = {
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

/**
 * Who a moderation notice is from: moderators act for the site, so no moderator is named (their
 * notices have no sender, and a block or mute of a moderator does not silence them).
 */
export const MODERATION_SENDER = 'Moderators';

/** What a moderation notice says after MODERATION_SENDER: the action, and the moderator's reason. */
export function moderationNoticeText(hidden: boolean, what: 'post' | 'comment', reason: string): string {
  const action = `${hidden ? 'hid' : 'restored'} your ${what}`;
  return reason ? `${action}: “${reason}”` : action;
}
