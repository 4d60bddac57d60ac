import {
  BLOG_MESSAGES,
  type Blog,
  type BlogCard,
  type BlogListQuery,
  type BlogSeries,
  normalizeTag,
  REVISION_MESSAGES,
} from '@inkwell/core';
import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/errors';
import { truthy } from '../../db/flags';
import { isUuid, newId, nowIso } from '../../db/ids';
import type { Database } from '../../db/schema';
import { conflict, forbidden, notFound } from '../../lib/errors';
import { canDeleteBlog, canEditBlog, canModeratorRead, canReadBlog, isPubliclyVisible } from '../../lib/policies';
import type { PublicDataChanges } from '../../lib/public-data';
import { PublicMemo } from '../../lib/public-memo';
import { blogPageTags, countsTag, followersTag, LISTS_TAG, postTag, profileTag } from '../../lib/public-tags';
import { type Tx, transact } from '../../lib/tx';
import type { BlockingRepository } from '../blocking/blocking.repo';
import type { RevisionKeeper } from '../revisions/revision-keeper';
import { searchTerms } from '../search/search.query';
import type { SearchRepository } from '../search/search.repo';
import type { StoredImage, UploadsService } from '../uploads/uploads.service';
import type { UsersRepository } from '../users/users.repo';
import { type BlogInput, type BlogPatch, ChangedMeanwhile, completed, EDIT_ATTEMPTS, publicationDates, sameState } from './blog-edit';
import { assertPublishable, fillImagePlaceholders, parseTags, resolveFeatured, writableColumns } from './blog-write';
import { countsText, page, presentBlog, presentCard, presentCounts, rowCountsText } from './blogs.presenter';
import type { BlogRow, BlogsRepository } from './blogs.repo';
import { cleanContent, precheckContent } from './content';
import { blogIdFromTitle } from './slug';
import type { ViewerFlagsRepository } from './viewer-flags.repo';

export type ViewerFlags = Pick<Blog, 'isLiked' | 'isSaved' | 'isFollowing'>;

/** (blog, viewer) pairs whose flags are kept: three booleans each, so many more than kept pages. */
const VIEWER_FLAGS_MEMO_SIZE = 50_000;

export interface BlogEvents {
  /** A blog became visible: created published, or a draft published. */
  onPublished?(e: { authorId: string; blogDbId: string }, tx: Tx): Promise<void>;
  /** A published blog was edited and stays published. */
  onUpdated?(e: { authorId: string; blogDbId: string }, tx: Tx): Promise<void>;
  /** A blog is about to be deleted, and everything about it with it (ON DELETE CASCADE). */
  onDeleting?(e: { blogDbId: string }, tx: Tx): Promise<void>;
}

export interface BlogsDeps {
  db: Kysely<Database>;
  blogs: BlogsRepository;
  users: UsersRepository;
  viewerFlags: ViewerFlagsRepository;
  /** Drops the in-memory blog pages when public data changes. */
  publicData?: PublicDataChanges;
  /** The longest a kept blog page lives (RESPONSE_CACHE_TTL), so the response cache's backstop holds. */
  publicTtlMs?: number;
  search: SearchRepository;
  uploads: UploadsService;
  events?: BlogEvents;
  /** Keeps each previous version (revision history) and checks the writer's version. */
  revisions?: RevisionKeeper;
  /** The page's series box (issue 16): the parts `viewerId` (null: the public) can read. */
  series?: (blogDbId: string, blogId: string, viewerId: string | null) => Promise<BlogSeries | null>;
  /** Mutes: a muter's home feed leaves out the muted authors (issue 15). */
  blocking?: BlockingRepository;
}

export class BlogsService {
  /** Published blog pages in memory; only with a change feed to drop them (off with RESPONSE_CACHE=off). */
  private readonly pages?: PublicMemo<Blog>;
  /**
   * Each signed-in viewer's flags on a published page, by blog and viewer, tagged like the page
   * plus its author's profile: a like or save touches the post, a follow (or a block, which ends
   * follows) both profiles, and anything undeclared drops everything, so every change of a flag
   * drops it, on every instance (public data changes travel over Redis).
   */
  private readonly flags?: PublicMemo<ViewerFlags>;

  constructor(private readonly deps: BlogsDeps) {
    if (deps.publicData) {
      this.pages = new PublicMemo<Blog>(deps.publicData, { ttlMs: deps.publicTtlMs });
      this.flags = new PublicMemo<ViewerFlags>(deps.publicData, {
        ttlMs: deps.publicTtlMs,
        maxEntries: VIEWER_FLAGS_MEMO_SIZE,
        whileReliable: true,
      });
    }
  }

  async create(userId: string, input: BlogInput): Promise<{ message: string; blog: BlogCard }> {
    const { db, blogs, search, uploads } = this.deps;
    const tags = parseTags(input.tags);
    const stored: StoredImage[] = [];
    try {
      // Content refused is refused before its images (up to 20) are decoded and stored.
      if (input.images?.length) precheckContent(input.content);
      const content = cleanContent(await fillImagePlaceholders(this.deps.uploads, userId, input.content, input.images, stored));
      if (!input.draft || input.scheduledAt) assertPublishable(input, content);
      const image = await resolveFeatured(this.deps.uploads, userId, input.image, null, stored);
      const id = newId();
      const now = nowIso();
      const draft = input.draft ? 1 : 0;
      let blogId = '';
      for (let attempt = 0; ; attempt++) {
        blogId = blogIdFromTitle(input.title);
        try {
          await transact(db, async (tx) => {
            const trx = tx.db;
            const searchRowid = await search.index(
              { title: input.title, description: input.description, tags, body: content.text },
              !draft,
              trx,
            );
            await blogs.insert(
              {
                id,
                blog_id: blogId,
                creator_id: userId,
                ...writableColumns(input, content, tags, image, searchRowid),
                like_count: 0,
                comment_count: 0,
                save_count: 0,
                created_at: now,
                updated_at: now,
                published_at: draft ? null : now,
              },
              trx,
            );
            await blogs.replaceTags(id, tags, draft, now, trx);
            if (!draft) await blogs.adjustPublishedCount(userId, 1, trx);
            await uploads.attachToBlog(id, userId, [...content.imageUrls, ...(image ? [image] : [])], trx);
            if (!draft) await this.deps.events?.onPublished?.({ authorId: userId, blogDbId: id }, tx);
            await this.touchPost(tx, blogId, userId);
          });
          break;
        } catch (err) {
          if (attempt < 3 && isUniqueViolation(err)) continue; // blogId collision: draw another suffix
          throw err;
        }
      }
      const row = await blogs.findPage(blogId, userId);
      return { message: draft ? BLOG_MESSAGES.createdDraft : BLOG_MESSAGES.created, blog: presentCard(row!) };
    } catch (err) {
      await uploads.discard(stored);
      throw err;
    }
  }

  /**
   * Everything an edit decides (the fields a partial patch keeps, the publication dates, the count,
   * who is told) is decided from the post as read before its transaction, which is checked again
   * under the row's lock; if another edit landed in between, the edit starts over from the new row.
   * Two publishes at once had both counted and told the followers (PostgreSQL), and two partial
   * edits at once had each put back the field the other changed.
   */
  async update(userId: string, blogId: string, patch: BlogPatch): Promise<{ message: string; blog: BlogCard }> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.updateFrom(await this.changeable(userId, blogId, canEditBlog), userId, blogId, patch);
      } catch (err) {
        if (!(err instanceof ChangedMeanwhile)) throw err;
        if (attempt >= EDIT_ATTEMPTS) throw conflict(REVISION_MESSAGES.conflict);
      }
    }
  }

  private async updateFrom(current: BlogRow, userId: string, blogId: string, patch: BlogPatch) {
    const { db, blogs, search, uploads } = this.deps;
    const input = completed(patch, current);
    const tags = parseTags(input.tags);
    const stored: StoredImage[] = [];
    let orphanKeys: string[] = [];
    try {
      // Content refused is refused before its images (up to 20) are decoded and stored.
      if (input.images?.length) precheckContent(input.content);
      const content = cleanContent(await fillImagePlaceholders(this.deps.uploads, userId, input.content, input.images, stored));
      if (!input.draft || input.scheduledAt) assertPublishable(input, content);
      const image = await resolveFeatured(this.deps.uploads, userId, input.image, current.image, stored);
      const draft = input.draft ? 1 : 0;
      const dates = publicationDates(current, draft);
      const createdAt = dates.created_at ?? current.created_at;
      await transact(db, async (tx) => {
        const trx = tx.db;
        if (!sameState(await blogs.lockState(current.id, trx), current)) throw new ChangedMeanwhile();
        if (input.claim && !(await input.claim(trx))) throw conflict('This post is no longer scheduled');
        const kept = await this.deps.revisions?.beforeUpdate(
          {
            blogDbId: current.id,
            expectedVersion: input.version,
            reason: input.reason ?? (!draft && current.draft ? 'publish' : 'update'),
          },
          trx,
        );
        const searchRowid = await search.reindex(
          current.search_rowid,
          { title: input.title, description: input.description, tags, body: content.text },
          !draft,
          trx,
          { newest: dates.created_at !== undefined },
        );
        await blogs.update(
          current.id,
          {
            ...writableColumns(input, content, tags, image, searchRowid),
            ...dates,
            updated_at: nowIso(),
            ...(kept ? { version: kept.version } : {}),
          },
          trx,
        );
        await blogs.replaceTags(current.id, tags, draft, createdAt, trx, current.hidden);
        // A hidden post (issue 15) is not counted, published or not: only a visible change moves the count.
        const visibleAfter = isPubliclyVisible({ ...current, draft });
        const countDelta = Number(visibleAfter) - Number(isPubliclyVisible(current));
        if (countDelta) await blogs.adjustPublishedCount(userId, countDelta, trx);
        const keep = [...content.imageUrls, ...(image ? [image] : [])];
        await uploads.attachToBlog(current.id, userId, keep, trx);
        orphanKeys = await uploads.releasedByBlog(current.id, [...keep, ...(kept?.images ?? [])], trx);
        // Nobody is told about a hidden post; followers once, at its first publication.
        if (visibleAfter && dates.published_at && current.draft)
          await this.deps.events?.onPublished?.({ authorId: userId, blogDbId: current.id }, tx);
        else if (visibleAfter) await this.deps.events?.onUpdated?.({ authorId: userId, blogDbId: current.id }, tx);
        await this.touchPost(tx, blogId, userId);
      });
    } catch (err) {
      await uploads.discard(stored);
      throw err;
    }
    await uploads.deleteFiles(orphanKeys);
    const row = await blogs.findPage(blogId, userId);
    return { message: BLOG_MESSAGES.updated, blog: presentCard(row!) };
  }

  /**
   * A post added or edited: its page, every list (its place, title or tags in them) and its
   * author's profile (published count, tabs). Search index writes are raw SQL ('*').
   * A deletion is not declared: its likes, saves and comments go with it (cascade), which
   * changes other readers' profiles too, so it drops every cached copy.
   */
  private async touchPost(tx: Tx, blogId: string, authorId: string): Promise<void> {
    const author = await this.deps.users.usernameOf(authorId, tx.db);
    await tx.touch([postTag(blogId), LISTS_TAG, ...(author ? [profileTag(author)] : [])], ['blogs', 'blog_tags', 'users', '*']);
  }

  async remove(userId: string, blogId: string): Promise<string> {
    await this.erase(await this.changeable(userId, blogId, canDeleteBlog));
    return BLOG_MESSAGES.deleted;
  }

  /**
   * The operator's take-down (`npm run admin -- delete-post`): any post, whatever its state, goes
   * as its author's deletion would, files included (a hidden post's images stay served at their
   * addresses); `audit` writes the audit row in the same transaction. Answers the deleted post.
   */
  async removeAsOperator(blogId: string, audit: (tx: Tx, blog: BlogRow) => Promise<void>): Promise<BlogRow> {
    // The public id of its address, or the `_id` the API and the database show.
    const blog = (await this.deps.blogs.findByBlogId(blogId)) ?? (isUuid(blogId) ? await this.deps.blogs.findById(blogId) : undefined);
    if (!blog) throw notFound(BLOG_MESSAGES.notFound);
    await this.erase(blog, (tx) => audit(tx, blog));
    return blog;
  }

  private async erase(current: BlogRow, alongside?: (tx: Tx) => Promise<void>): Promise<void> {
    const { db, blogs, search, uploads } = this.deps;
    let keys: string[] = [];
    await transact(db, async (tx) => {
      const trx = tx.db;
      keys = await uploads.releasedByBlog(current.id, [], trx);
      await this.deps.events?.onDeleting?.({ blogDbId: current.id }, tx);
      await search.remove(current.search_rowid, trx);
      if (isPubliclyVisible(current)) await blogs.adjustPublishedCount(current.creator_id, -1, trx);
      await alongside?.(tx);
      // Likes, saves, tags, comments, notifications and upload rows go with it (ON DELETE CASCADE).
      await blogs.delete(current.id, trx);
    });
    await uploads.deleteFiles(keys);
  }

  /** The blog a user is about to change: missing to whoever cannot read it, forbidden if the policy says no. */
  private async changeable(userId: string, blogId: string, allowed: (viewer: string, blog: BlogRow) => boolean): Promise<BlogRow> {
    const blog = await this.deps.blogs.findByBlogId(blogId);
    if (!blog || !canReadBlog(userId, blog)) throw notFound(BLOG_MESSAGES.notFound);
    if (!allowed(userId, blog)) throw forbidden(BLOG_MESSAGES.notAuthor);
    return blog;
  }

  /**
   * A blog for its reading page; drafts exist only for their author. A published blog's page is
   * kept in memory until public data changes; a signed-in viewer adds only their own flags.
   */
  async get(blogId: string, viewerId: string | null): Promise<Blog> {
    const published = await this.publishedPage(blogId, true);
    if (published) {
      if (!viewerId) return published;
      return { ...published, ...(await this.flagsOn(published, viewerId)) };
    }
    const row = await this.deps.blogs.findPage(blogId, viewerId);
    if (!row) throw notFound(BLOG_MESSAGES.notFound);
    if (!canReadBlog(viewerId, row)) {
      const viewer = viewerId ? await this.deps.users.findById(viewerId) : undefined;
      if (!canModeratorRead(viewer, row)) throw notFound(BLOG_MESSAGES.notFound);
    }
    return presentBlog(row, (await this.deps.series?.(row.id, blogId, viewerId)) ?? null);
  }

  /** The viewer's own flags on a published blog (undefined for drafts and unknown ids). */
  async viewerFlags(blogId: string, viewerId: string): Promise<ViewerFlags | undefined> {
    const published = await this.publishedPage(blogId);
    return published && this.flagsOn(published, viewerId);
  }

  private async flagsOn(blog: Blog, viewerId: string): Promise<ViewerFlags> {
    if (!blog.creator) return { isLiked: false, isSaved: false, isFollowing: false };
    // While another instance's change may not reach here (Redis subscription down), the memo
    // answers and keeps nothing (whileReliable): the database says.
    const memo = this.flags;
    const key = `${blog.blogId} ${viewerId}`;
    const known = memo?.get(key);
    if (known) return known;
    const generation = memo?.generation ?? 0;
    const row = await this.deps.viewerFlags.find(blog._id, blog.creator._id, viewerId);
    const flags = { isLiked: truthy(row.is_liked), isSaved: truthy(row.is_saved), isFollowing: truthy(row.is_following) };
    // A like or save touches only the post's counts tag, a follow the author's followers tag, a
    // block (which ends follows) their profile tag: each drops the viewer's flags.
    const { username } = blog.creator;
    memo?.set(key, generation, flags, [
      ...blogPageTags(blog.blogId, blog),
      countsTag(blog.blogId),
      profileTag(username),
      followersTag(username),
    ]);
    return flags;
  }

  /**
   * The anonymous view of a published blog, or undefined for a draft or an unknown id. The kept
   * copy is not dropped by a like (its counts tag): with `counts` they are read again, alone.
   */
  private async publishedPage(blogId: string, counts = false): Promise<Blog | undefined> {
    const known = this.pages?.get(blogId);
    if (known && !counts) return known;
    const now = known && (await this.deps.blogs.findCounts(blogId));
    if (now) return { ...known, ...presentCounts(now) };
    const generation = this.pages?.generation ?? 0;
    const row = await this.deps.blogs.findPage(blogId, null);
    if (!row || !isPubliclyVisible(row)) return undefined;
    const blog = presentBlog(row, (await this.deps.series?.(row.id, blogId, null)) ?? null);
    this.pages?.set(blogId, generation, blog, blogPageTags(blogId, blog));
    return blog;
  }

  /** A post's like, comment and save counts as its page shows them (countsText), for lib/live-counts.ts. */
  async liveCounts(blogId: string): Promise<string | undefined> {
    const row = await this.deps.blogs.findCounts(blogId);
    return row && rowCountsText(row);
  }

  /** Whether the viewer gets the shared (cached) answer of `query`: anything but a muter's home feed. */
  async seesSharedList(query: BlogListQuery, viewerId: string | null): Promise<boolean> {
    if (viewerId === null || query.search !== undefined || query.tag) return true;
    return !(await this.deps.blocking?.mutesAnyone(viewerId));
  }

  /** Home feed, tag page or search results, newest or best first; never drafts. */
  async list(query: BlogListQuery, viewerId: string | null = null): Promise<{ blogs: BlogCard[]; hasMore: boolean }> {
    const { limit } = query;
    const offset = (query.page - 1) * limit;
    let rows: Awaited<ReturnType<BlogsRepository['listPublished']>>;
    if (query.search !== undefined) {
      const terms = searchTerms(query.search);
      rows = terms.length ? await this.deps.search.search(terms, limit, offset) : [];
    } else if (query.tag) {
      // Stored tags are canonical: /tag/node.js and ?tag=Node.js find the posts tagged nodejs.
      rows = await this.deps.blogs.listByTag(normalizeTag(query.tag), limit, offset);
    } else {
      const muterId = (await this.seesSharedList(query, viewerId)) ? null : viewerId;
      rows = await this.deps.blogs.listPublished(limit, offset, muterId);
    }
    const { items, hasMore } = page(rows, limit);
    return { blogs: items.map(presentCard), hasMore };
  }
}
