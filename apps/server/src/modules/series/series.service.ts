import { BLOG_MESSAGES, type BlogSeries, MAX_SERIES_POSTS, SERIES_MESSAGES, type Series, type SeriesMineQuery } from '@inkwell/core';
import type { Kysely, Selectable } from 'kysely';
import { newId, nowIso } from '../../db/ids';
import type { Database, SeriesTable } from '../../db/schema';
import { conflict, forbidden, notFound } from '../../lib/errors';
import { decodeTimeCursor, encodeCursor } from '../../lib/keyset-cursor';
import { canEditBlog, canEditSeries, canReadBlog, type ViewerId } from '../../lib/policies';
import { postTag } from '../../lib/public-tags';
import { type Tx, transact } from '../../lib/tx';
import type { BlogsRepository } from '../blogs/blogs.repo';
import type { SeriesPostRow, SeriesRepository } from './series.repo';

export interface SeriesDeps {
  db: Kysely<Database>;
  blogs: BlogsRepository;
  series: SeriesRepository;
}

const SERIES_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Series (issue 16): the author creates, renames and deletes them and sets their posts' order;
 * anyone reads one, seeing only the posts they could read on their own.
 */
export class SeriesService {
  constructor(private readonly deps: SeriesDeps) {}

  async create(userId: string, title: string): Promise<Series> {
    const row = { id: newId(), author_id: userId, title, created_at: nowIso() };
    await transact(this.deps.db, ({ db }) => this.deps.series.create(row, db));
    return present(row, []);
  }

  async rename(userId: string, id: string, title: string): Promise<Series> {
    const series = await this.own(userId, id);
    await transact(this.deps.db, async (tx) => {
      await this.deps.series.rename(id, title, tx.db);
      await this.touchMembers(tx, await this.deps.series.memberIds(id, tx.db));
    });
    return this.present({ ...series, title }, 'all');
  }

  async remove(userId: string, id: string): Promise<void> {
    await this.own(userId, id);
    await transact(this.deps.db, async (tx) => {
      const members = await this.deps.series.memberIds(id, tx.db);
      await this.deps.series.remove(id, tx.db);
      await this.touchMembers(tx, members);
    });
  }

  /** Sets the series' posts in order; every one must be the author's own (a stranger's draft: 404). */
  async setPosts(userId: string, id: string, blogIds: readonly string[]): Promise<Series> {
    const series = await this.own(userId, id);
    const dbIds: string[] = [];
    for (const blogId of new Set(blogIds)) dbIds.push((await this.ownPost(userId, blogId)).id);
    await transact(this.deps.db, async (tx) => {
      const before = await this.deps.series.memberIds(id, tx.db);
      await this.deps.series.replacePosts(id, dbIds, tx.db);
      await this.touchMembers(tx, [...before, ...dbIds]);
    });
    return this.present(series, 'all');
  }

  /** The editor's select: the post joins the end of one of the author's series, or leaves its series. */
  async setBlogSeries(userId: string, blogId: string, seriesId: string | null): Promise<void> {
    const post = await this.ownPost(userId, blogId);
    if (seriesId !== null) await this.own(userId, seriesId);
    await transact(this.deps.db, async (tx) => {
      if (seriesId) await this.deps.series.lock(seriesId, tx.db);
      const previous = await this.deps.series.seriesOfBlog(post.id, tx.db);
      // Joining a full series is refused (staying in it is not a join).
      if (seriesId && previous !== seriesId && (await this.deps.series.postCount(seriesId, tx.db)) >= MAX_SERIES_POSTS) {
        throw conflict(SERIES_MESSAGES.full);
      }
      const members = [
        ...(previous ? await this.deps.series.memberIds(previous, tx.db) : [post.id]),
        ...(seriesId ? await this.deps.series.memberIds(seriesId, tx.db) : []),
      ];
      await this.deps.series.setBlogSeries(post.id, seriesId, tx.db);
      await this.touchMembers(tx, members);
    });
  }

  /** The series a post of the author's is in (for the editor). */
  async seriesOfBlog(userId: string, blogId: string): Promise<string | null> {
    return this.deps.series.seriesOfBlog((await this.ownPost(userId, blogId, true)).id);
  }

  async get(viewerId: ViewerId, id: string): Promise<Series> {
    const row = SERIES_ID.test(id) ? await this.deps.series.find(id) : undefined;
    if (!row) throw notFound(SERIES_MESSAGES.notFound);
    return this.present(row, canEditSeries(viewerId, row) ? 'all' : viewerId);
  }

  /**
   * A page of the author's series, oldest first, each with all its posts (drafts included; at most
   * MAX_SERIES_POSTS each): two queries a page. nextCursor is the page's last series.
   */
  async mine(userId: string, query: SeriesMineQuery): Promise<{ series: Series[]; hasMore: boolean; nextCursor: string | null }> {
    const rows = await this.deps.series.listByAuthor(userId, query.limit, decodeTimeCursor(query.cursor));
    const shown = rows.slice(0, query.limit);
    const hasMore = rows.length > shown.length;
    const posts = await this.deps.series.postsOf(
      shown.map((r) => r.id),
      'all',
    );
    const last = shown[shown.length - 1];
    return {
      series: shown.map((r) =>
        present(
          r,
          posts.filter((p) => p.series_id === r.id),
        ),
      ),
      hasMore,
      nextCursor: hasMore && last ? encodeCursor([last.created_at, last.id]) : null,
    };
  }

  /**
   * The series box of a post's page, one query: the parts the viewer can read (null: the public),
   * or null when the post is in no series or (cannot happen for a readable page) not among them.
   */
  async forPage(blogDbId: string, blogId: string, viewerId: ViewerId): Promise<BlogSeries | null> {
    const rows = await this.deps.series.pageSeries(blogDbId, viewerId);
    const index = rows.findIndex((r) => r.blog_id === blogId);
    const first = rows[0];
    if (!first || index < 0) return null;
    return {
      id: first.series_id,
      title: first.series_title,
      part: index + 1,
      total: rows.length,
      posts: rows.map((r, i) => ({ blogId: r.blog_id, title: r.title, part: i + 1 })),
    };
  }

  /** The member posts' pages show the series: they, and nothing else cached, change. */
  private async touchMembers(tx: Tx, blogDbIds: readonly string[]): Promise<void> {
    const ids = [...new Set(blogDbIds)];
    const rows = ids.length ? await tx.db.selectFrom('blogs').select('blog_id').where('id', 'in', ids).execute() : [];
    await tx.touch(
      rows.map((r) => postTag(r.blog_id)),
      ['series', 'series_posts'],
    );
  }

  private async present(row: Selectable<SeriesTable>, viewer: ViewerId | 'all'): Promise<Series> {
    return present(row, await this.deps.series.postsOf([row.id], viewer));
  }

  private async own(userId: string, id: string): Promise<Selectable<SeriesTable>> {
    const row = SERIES_ID.test(id) ? await this.deps.series.find(id) : undefined;
    if (!row) throw notFound(SERIES_MESSAGES.notFound);
    if (!canEditSeries(userId, row)) throw forbidden(SERIES_MESSAGES.notAuthor);
    return row;
  }

  /** As editing the post: a stranger's draft does not exist, their published post is not ours. */
  private async ownPost(userId: string, blogId: string, reading = false) {
    const post = await this.deps.blogs.findByBlogId(blogId);
    if (!post || !canReadBlog(userId, post)) throw notFound(BLOG_MESSAGES.notFound);
    if (!canEditBlog(userId, post)) throw forbidden(reading ? BLOG_MESSAGES.notAuthorToRead : SERIES_MESSAGES.notYourPost);
    return post;
  }
}

function present(row: Selectable<SeriesTable>, posts: readonly SeriesPostRow[]): Series {
  return {
    id: row.id,
    title: row.title,
    authorId: row.author_id,
    createdAt: row.created_at,
    posts: posts.map((p, i) => ({ blogId: p.blog_id, title: p.title, part: i + 1 })),
  };
}
