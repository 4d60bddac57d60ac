import { type NotificationView, notificationText } from '@inkwell/core';
import { canReadBlog } from '../../lib/policies';
import type { NotificationRow } from './notifications.repo';

export type { NotificationView };

/**
 * A notification of SPEC.md section 3; message carries the text the UI shows after the sender's name.
 * A blog its recipient cannot see (back to draft) shows neither its title, its link nor the comment on it.
 */
export function presentNotification(row: NotificationRow): NotificationView {
  const blogVisible = canReadBlog(row.recipient_id, { draft: row.blog_draft, creator_id: row.blog_creator_id });
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
    comment: row.comment_id && blogVisible ? { _id: row.comment_id, comment: row.comment_text ?? '' } : null,
  };
}
