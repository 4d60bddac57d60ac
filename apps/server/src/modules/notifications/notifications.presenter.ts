import { type NotificationView, notificationText } from '@inkwell/core';
import { canReadBlog, canReadComment, canReadThread } from '../../lib/policies';
import type { ThreadComment } from '../comments/comments.repo';
import type { NotificationRow } from './notifications.repo';

export type { NotificationView };

/**
 * A notification of SPEC.md section 3; message carries the text the UI shows after the sender's name.
 * A blog its recipient cannot see (back to draft, hidden) shows neither its title, its link nor the
 * comment on it; a hidden comment (issue 15) is left out too, and a reply below one (`above`: the
 * comments above the notification's comment, nearest first).
 */
export function presentNotification(row: NotificationRow, above: readonly ThreadComment[] = []): NotificationView {
  const blogVisible = canReadBlog(row.recipient_id, { draft: row.blog_draft, hidden: row.blog_hidden, creator_id: row.blog_creator_id });
  const commentVisible =
    blogVisible &&
    row.comment_user_id !== null &&
    canReadComment(row.recipient_id, { user_id: row.comment_user_id, hidden: row.comment_hidden }) &&
    canReadThread(row.recipient_id, above);
  return {
    _id: row.id,
    type: row.type,
    isRead: row.is_read === 1,
    createdAt: row.created_at,
    message: notificationText(row.type, row.message),
    sender: row.sender_username
      ? { _id: row.sender_id!, name: row.sender_name ?? '', username: row.sender_username, profilePic: row.sender_profile_pic ?? null }
      : null,
    blog: row.blog_public_id && blogVisible ? { blogId: row.blog_public_id, title: row.blog_title ?? '' } : null,
    comment: row.comment_id && commentVisible ? { _id: row.comment_id, comment: row.comment_text ?? '' } : null,
  };
}
