import type { ReportGroup, ReportTargetType } from '@inkwell/core';
import { HIDDEN_BY_MODERATOR } from '../../db/schema';
import type { ModerationRepository } from './moderation.repo';

/**
 * Hidden by a moderator's own hand: the bit Hide and Restore change. A suspended author's post is
 * hidden too (the other bit), but Restore cannot show it and Hide still has work to do.
 */
const isHiddenByModerator = (hidden: number | string | null): boolean => (Number(hidden) & HIDDEN_BY_MODERATOR) !== 0;

/** What a report or an action is about: the API's id (a post by its blogId) and the internal one. */
export interface Target {
  type: ReportTargetType;
  /** blogs.id, comments.id or users.id: what reports.target_id holds. */
  dbId: string;
  /** The id the API and the audit log show: blogId for a post. */
  apiId: string;
  ownerId: string;
  /** Post title, comment excerpt or username, copied into the audit log. */
  label: string;
}

const EXCERPT = 80;
export const excerpt = (text: string): string => (text.length > EXCERPT ? `${text.slice(0, EXCERPT - 1)}…` : text);

/** The queue's view of each reported item, by `${type}:${dbId}`. */
export async function describeTargets(
  repo: ModerationRepository,
  groups: { targetType: string; targetId: string }[],
): Promise<Map<string, ReportGroup['target'] & { apiId: string }>> {
  const ids = (type: string) => groups.filter((g) => g.targetType === type).map((g) => g.targetId);
  const [posts, comments, users] = await Promise.all([
    repo.postsByIds(ids('post')),
    repo.commentsByIds(ids('comment')),
    repo.usersByIds(ids('user')),
  ]);
  const out = new Map<string, ReportGroup['target'] & { apiId: string }>();
  for (const p of posts) {
    out.set(`post:${p.id}`, {
      apiId: p.blog_id,
      title: p.title,
      url: `/blog/${p.blog_id}`,
      author: { id: p.author_id, username: p.username, name: p.name },
      hidden: isHiddenByModerator(p.hidden),
      authorSuspended: !!p.suspended_at,
    });
  }
  for (const c of comments) {
    out.set(`comment:${c.id}`, {
      apiId: c.id,
      title: excerpt(c.comment),
      url: `/blog/${c.blog_id}#comment-${c.id}`,
      author: { id: c.author_id, username: c.username, name: c.name },
      hidden: isHiddenByModerator(c.hidden),
      authorSuspended: !!c.suspended_at,
    });
  }
  for (const u of users) {
    out.set(`user:${u.id}`, {
      apiId: u.id,
      title: u.name,
      url: `/profile/${u.username}`,
      author: { id: u.id, username: u.username, name: u.name },
      // A profile is never hidden, only its owner suspended (shown as such).
      hidden: false,
      authorSuspended: !!u.suspended_at,
    });
  }
  return out;
}
