import { MODERATION_SENDER, relativeTime } from '@inkwell/core';
import { Avatar } from '../../../components/ui/Avatar';
import type { Notification } from '../api/notifications';

/** Sender avatar, '{sender name} {message}', the blog title if any, and the relative time. */
export function NotificationContent({ notification, compact = false }: { notification: Notification; compact?: boolean }) {
  const { sender, blog, comment } = notification;
  // A moderator's action comes from the site, not a person (no sender): 'Moderators hid your post: …'.
  const name = sender?.name || (notification.type === 'moderation' ? MODERATION_SENDER : 'Someone');
  return (
    <span className="flex min-w-0 items-start gap-3">
      <Avatar name={name} src={sender?.profilePic} size={compact ? 36 : 40} />
      <span className="min-w-0 flex-1">
        <span className={`block wrap-anywhere text-gray-700 dark:text-gray-300 ${compact ? 'text-sm' : 'text-[15px]'}`}>
          <span className="font-semibold text-gray-900 dark:text-gray-100">{name}</span> {notification.message}
        </span>
        {blog?.title && (
          <span className="mt-0.5 block truncate text-sm font-medium text-indigo-700 dark:text-indigo-300">{blog.title}</span>
        )}
        {!compact && comment?.comment && (
          <span className="mt-1 line-clamp-2 block border-l-2 wrap-anywhere border-gray-200 pl-2 text-sm text-gray-600 italic dark:border-gray-700 dark:text-gray-400">
            {comment.comment}
          </span>
        )}
        <time dateTime={notification.createdAt} className="mt-1 block text-xs text-gray-600 dark:text-gray-400">
          {relativeTime(notification.createdAt)}
        </time>
      </span>
    </span>
  );
}

/** The red badge: the count, capped at '9+' (SPEC.md 9). */
export function badgeText(count: number, cap: number): string {
  return count > cap ? `${cap}+` : String(count);
}
