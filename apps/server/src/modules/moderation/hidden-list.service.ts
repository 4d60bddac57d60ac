import type { HiddenAction, HiddenItem, HiddenListKind } from '@inkwell/core';
import { decodeTimeCursor, encodeCursor } from '../../lib/keyset-cursor';
import type { HiddenListRepository } from './hidden-list.repo';
import { excerpt } from './targets';

interface AuditFields {
  id: string;
  created_at: string;
  reason: string | null;
  moderator_id: string | null;
  moderator_username: string | null;
  m_username: string | null;
  m_name: string | null;
}

/** The hide or suspension in force, as the audit log names its moderator (the command line: null). */
function actionOf(r: AuditFields): HiddenAction {
  const by = r.m_username
    ? { id: r.moderator_id!, username: r.m_username, name: r.m_name ?? r.m_username }
    : r.moderator_username // the moderator's account is gone: the name they had
      ? { id: '', username: r.moderator_username, name: r.moderator_username }
      : null;
  return { at: r.created_at, by, reason: r.reason };
}

/** A comment's first words on one line. */
const plainExcerpt = (text: string): string => excerpt(text.replace(/\s+/g, ' ').trim());

/**
 * 'Hidden and suspended' (GET /moderation/hidden): what moderators hid or suspended and is still
 * so, newest hide first, so that it can be restored or unsuspended after its report is closed.
 * The caller has checked the role (ModerationService.moderator).
 */
export class HiddenListService {
  constructor(private readonly repo: HiddenListRepository) {}

  async list(kind: HiddenListKind, cursor: string | undefined, limit: number): Promise<{ items: HiddenItem[]; nextCursor: string | null }> {
    const after = decodeTimeCursor(cursor);
    const rows = await this.rows(kind, after, limit);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1]?.audit;
    return {
      items: page.map((r) => r.item),
      nextCursor: rows.length > limit && last ? encodeCursor([last.created_at, last.id]) : null,
    };
  }

  private async rows(kind: HiddenListKind, after: ReturnType<typeof decodeTimeCursor>, limit: number) {
    const { repo } = this;
    switch (kind) {
      case 'posts':
        return (await repo.hiddenPosts(after, limit)).map((r) => ({
          audit: r,
          item: {
            kind: 'post' as const,
            post: {
              _id: r.blog_id,
              title: r.title,
              url: `/blog/${r.blog_id}`,
              author: { id: r.author_id, username: r.username, name: r.name },
            },
            action: actionOf(r),
          },
        }));
      case 'comments':
        return (await repo.hiddenComments(after, limit)).map((r) => ({
          audit: r,
          item: {
            kind: 'comment' as const,
            comment: {
              _id: r.comment_id,
              excerpt: plainExcerpt(r.comment),
              url: `/blog/${r.blog_id}#comment-${r.comment_id}`,
              author: { id: r.author_id, username: r.username, name: r.name },
              post: { _id: r.blog_id, title: r.title, url: `/blog/${r.blog_id}` },
            },
            action: actionOf(r),
          },
        }));
      case 'users':
        return (await repo.suspendedUsers(after, limit)).map((r) => ({
          audit: r,
          item: {
            kind: 'user' as const,
            user: { _id: r.user_id, username: r.username, name: r.name, url: `/profile/${r.username}` },
            action: actionOf(r),
          },
        }));
    }
  }
}
