import { type Blog, type BlogCard, type BlogContent, type BlogSeries, readingTimeMinutes } from '@inkwell/core';
import { truthy } from '../../db/flags';
import type { BlogCardRow } from './blogs.repo';

function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** A blog card of SPEC.md section 2 (home, search, tag, profile lists). */
export function presentCard(row: BlogCardRow): BlogCard {
  return {
    _id: row.id,
    blogId: row.blog_id,
    title: row.title,
    description: row.description,
    image: row.image,
    tags: parseJson<string[]>(row.tags, []),
    draft: row.draft === 1,
    creator: row.creator_username
      ? { _id: row.creator_id, name: row.creator_name ?? '', username: row.creator_username, profilePic: row.creator_profile_pic ?? null }
      : null,
    readingTime: readingTimeMinutes(row.block_count),
    ...presentCounts(row),
    createdAt: row.created_at,
    scheduledAt: row.scheduled_at ?? null,
    // Only rows the viewer may read get here: a hidden one is the author's own (or a moderator's view).
    hidden: Number(row.hidden) !== 0,
  };
}

type PageRow = BlogCardRow & { content: string; is_liked: unknown; is_saved: unknown; is_following: unknown };

/** The reading page's blog: content plus the viewer's own flags instead of id lists. */
export function presentBlog(row: PageRow, series: BlogSeries | null = null): Blog {
  return {
    ...presentCard(row),
    content: parseJson<BlogContent>(row.content, { blocks: [] }),
    updatedAt: row.updated_at,
    series,
    isLiked: truthy(row.is_liked),
    isSaved: truthy(row.is_saved),
    isFollowing: truthy(row.is_following),
  };
}

/** Drops the extra row fetched to learn whether another page exists. */
export function page<T>(rows: T[], limit: number): { items: T[]; hasMore: boolean } {
  return { items: rows.slice(0, limit), hasMore: rows.length > limit };
}

/** How a blog page's body ends for an anonymous reader (blogSchema's last keys, in order). */
const ANONYMOUS_FLAGS = '"isLiked":false,"isSaved":false,"isFollowing":false}}';

/** A cached anonymous blog page body with the viewer's own flags; undefined if its shape is not the expected one. */
export function withViewerFlags(anonymousBody: string, flags: { isLiked: boolean; isSaved: boolean; isFollowing: boolean }) {
  if (!anonymousBody.endsWith(ANONYMOUS_FLAGS)) return undefined;
  const own = `"isLiked":${flags.isLiked},"isSaved":${flags.isSaved},"isFollowing":${flags.isFollowing}}}`;
  const variant = `${+flags.isLiked}${+flags.isSaved}${+flags.isFollowing}`;
  return { body: anonymousBody.slice(0, -ANONYMOUS_FLAGS.length) + own, variant };
}

type Counts = Pick<BlogCard, 'likeCount' | 'commentCount' | 'saveCount'>;

/** A blog row's counts as a page shows them. */
export function presentCounts(row: { like_count: number; comment_count: number; save_count: number }): Counts {
  return { likeCount: row.like_count, commentCount: row.comment_count, saveCount: row.save_count };
}

/** A page's counts as lib/live-counts.ts compares them. */
export function countsText(blog: Counts): string {
  return `${blog.likeCount},${blog.commentCount},${blog.saveCount}`;
}

/** A post's counts as read or left by a write, as lib/live-counts.ts compares them. */
export const rowCountsText = (row: { like_count: number; comment_count: number; save_count: number }): string =>
  countsText(presentCounts(row));

// blogCardSchema's order; before them only the post's own strings, where a quote is always escaped.
const COUNTS_KEY = ',"likeCount":';
const COUNTS = /^,"likeCount":\d+,"commentCount":\d+,"saveCount":\d+,/;

/** A cached blog page body with other counts (countsText); undefined if its shape is not the expected one. */
export function withCounts(body: string, counts: string): string | undefined {
  const at = body.indexOf(COUNTS_KEY);
  const found = at < 0 ? null : COUNTS.exec(body.slice(at, at + 96));
  const [like, comment, save] = counts.split(',');
  if (!found || save === undefined) return undefined;
  return `${body.slice(0, at)},"likeCount":${like},"commentCount":${comment},"saveCount":${save},${body.slice(at + found[0].length)}`;
}
