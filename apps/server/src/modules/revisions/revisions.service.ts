import {
  type AutosaveNewRequest,
  type AutosaveRequest,
  BLOG_MESSAGES,
  blogFields,
  type PendingAutosaveResponse,
  REVISION_MESSAGES,
  type Revision,
  type RevisionSummary,
  tagsField,
} from '@inkwell/core';
import type { Kysely, Selectable } from 'kysely';
import { nowIso } from '../../db/ids';
import type { BlogsTable, Database } from '../../db/schema';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import { canEditBlog, canReadBlog } from '../../lib/policies';
import { isSafeImageUrl } from '../../lib/sanitize';
import { transact } from '../../lib/tx';
import type { BlogsRepository } from '../blogs/blogs.repo';
import type { BlogsService } from '../blogs/blogs.service';
import { cleanContent } from '../blogs/content';
import type { UploadsService } from '../uploads/uploads.service';
import type { RevisionRow, RevisionsRepository } from './revisions.repo';

export interface RevisionsDeps {
  db: Kysely<Database>;
  blogs: BlogsRepository;
  blogsService: BlogsService;
  revisions: RevisionsRepository;
  uploads: UploadsService;
}

const REVISION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Autosave (work in progress kept apart from the post until 'Update Blog') and revision history
 * (list, read, restore). Only the post's author reaches any of it; others get what they get for
 * the post itself (404 for a draft, 403 for a published post).
 */
export class RevisionsService {
  constructor(private readonly deps: RevisionsDeps) {}

  /** A new post becomes a draft on its first autosave (it needs a title by then). */
  async autosaveNew(userId: string, body: AutosaveNewRequest) {
    const fields = blogFields.safeParse({ title: body.title, description: body.description, draft: true });
    if (!fields.success) throw badRequest(fields.error.issues[0]?.message ?? 'Invalid input');
    const result = await this.deps.blogsService.create(userId, {
      ...fields.data,
      content: body.content ?? { blocks: [] },
      tags: body.tags ?? [],
      image: body.image ? { url: body.image } : undefined,
    });
    return { message: REVISION_MESSAGES.saved, blogId: result.blog.blogId, version: 1, savedAt: nowIso() };
  }

  /** Keeps the author's work in progress on an existing post; 409 when another save came first. */
  async autosave(userId: string, blogId: string, body: AutosaveRequest) {
    const { db, revisions, uploads } = this.deps;
    const post = await this.ownPost(userId, blogId);
    const content = cleanContent(body.content ?? { blocks: [] });
    const tags = tagsField.safeParse(body.tags ?? []);
    if (!tags.success) throw badRequest(`tags: ${tags.error.issues[0]?.message ?? 'invalid'}`);
    if (body.image && !isSafeImageUrl(body.image.trim())) throw badRequest('image: must be an uploaded image or an http(s) URL');
    const savedAt = nowIso();
    const image = body.image?.trim();
    const version = await transact(db, async ({ db: trx }) => {
      const row = await revisions.lockBlog(post.id, trx);
      if (!row) throw notFound(BLOG_MESSAGES.notFound);
      const current = Math.max(row.version, await revisions.pendingVersion(post.id, trx));
      if (!body.force && body.version !== current) throw conflict(REVISION_MESSAGES.conflict);
      const next = current + 1;
      await revisions.upsertAutosave(
        {
          blog_id: post.id,
          author_id: userId,
          version: next,
          title: body.title,
          description: body.description,
          tags: JSON.stringify(tags.data),
          image: body.image === undefined ? row.image : image || null,
          content: JSON.stringify(content.content),
          saved_at: savedAt,
        },
        trx,
      );
      // Images uploaded while editing (in blocks or as the featured image) belong to the post
      // from now on, so the cleanup of never-used uploads does not take them while the text
      // waits for 'Update Blog'.
      await uploads.attachToBlog(post.id, userId, image ? [...content.imageUrls, image] : content.imageUrls, trx);
      return next;
    });
    return { message: REVISION_MESSAGES.saved, blogId: post.blog_id, version, savedAt };
  }

  /** The version a save must name, and the author's pending text if there is one. */
  async pending(userId: string, blogId: string): Promise<Omit<PendingAutosaveResponse, 'success'>> {
    const post = await this.ownPost(userId, blogId, true);
    const [row, pendingVersion] = await Promise.all([
      this.deps.revisions.findAutosave(post.id, userId),
      this.deps.revisions.pendingVersion(post.id),
    ]);
    return {
      version: Math.max(post.version, pendingVersion),
      autosave: row
        ? {
            title: row.title,
            description: row.description,
            tags: JSON.parse(row.tags),
            image: row.image,
            content: JSON.parse(row.content),
            version: row.version,
            savedAt: row.saved_at,
          }
        : null,
    };
  }

  /** Drops the author's pending text; the post stays as last published or saved. */
  async discard(userId: string, blogId: string): Promise<{ message: string; version: number }> {
    const post = await this.ownPost(userId, blogId);
    await transact(this.deps.db, ({ db: trx }) => this.deps.revisions.deleteAutosaves(post.id, trx, userId));
    return { message: REVISION_MESSAGES.discarded, version: Math.max(post.version, await this.deps.revisions.pendingVersion(post.id)) };
  }

  async list(userId: string, blogId: string): Promise<{ version: number; revisions: RevisionSummary[] }> {
    const post = await this.ownPost(userId, blogId, true);
    const rows = await this.deps.revisions.list(post.id);
    const version = Math.max(post.version, await this.deps.revisions.pendingVersion(post.id));
    return { version, revisions: rows.map(presentSummary) };
  }

  async get(userId: string, blogId: string, revisionId: string): Promise<Revision> {
    const post = await this.ownPost(userId, blogId, true);
    return presentRevision(await this.findRevision(post.id, revisionId));
  }

  /**
   * Brings a previous version back through the normal update path: the current version is kept
   * as a revision first, pending autosaves are dropped, and a published post stays published
   * (so the restored text must still meet the publishing rules).
   */
  async restore(userId: string, blogId: string, revisionId: string, version?: number) {
    const post = await this.ownPost(userId, blogId);
    const revision = await this.findRevision(post.id, revisionId);
    await this.deps.blogsService.update(userId, blogId, {
      title: revision.title,
      description: revision.description,
      draft: post.draft === 1,
      content: revision.content,
      tags: JSON.parse(revision.tags),
      image: revision.image ? { url: revision.image } : null,
      version,
      reason: 'restore',
    });
    const now = await this.deps.blogs.findByBlogId(blogId);
    return { message: REVISION_MESSAGES.restored, version: now?.version ?? post.version + 1 };
  }

  private async findRevision(blogDbId: string, revisionId: string): Promise<RevisionRow> {
    const row = REVISION_ID.test(revisionId) ? await this.deps.revisions.find(blogDbId, revisionId) : undefined;
    if (!row) throw notFound(REVISION_MESSAGES.notFound);
    return row;
  }

  /** The same answers as editing the post: a stranger's draft does not exist, a published post is not theirs. */
  private async ownPost(userId: string, blogId: string, reading = false): Promise<Selectable<BlogsTable>> {
    const post = await this.deps.blogs.findByBlogId(blogId);
    if (!post || !canReadBlog(userId, post)) throw notFound(BLOG_MESSAGES.notFound);
    if (!canEditBlog(userId, post)) throw forbidden(reading ? BLOG_MESSAGES.notAuthorToRead : BLOG_MESSAGES.notAuthor);
    return post;
  }
}

function presentSummary(row: Pick<RevisionRow, 'id' | 'version' | 'reason' | 'title' | 'draft' | 'created_at'>): RevisionSummary {
  return { _id: row.id, version: row.version, reason: row.reason, title: row.title, draft: row.draft === 1, createdAt: row.created_at };
}

function presentRevision(row: RevisionRow): Revision {
  return {
    ...presentSummary(row),
    description: row.description,
    tags: JSON.parse(row.tags),
    image: row.image,
    content: JSON.parse(row.content),
  };
}
