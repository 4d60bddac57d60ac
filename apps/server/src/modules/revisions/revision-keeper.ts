import { REVISION_MESSAGES } from '@inkwell/core';
import type { Kysely } from 'kysely';
import { newId, nowIso } from '../../db/ids';
import type { Database } from '../../db/schema';
import { conflict, notFound } from '../../lib/errors';
import type { RevisionsRepository } from './revisions.repo';

export interface BeforeUpdate {
  blogDbId: string;
  /** The version the writer started from; undefined for clients that send none (SPEC.md PATCH). */
  expectedVersion?: number;
  reason: 'publish' | 'update' | 'restore';
}

/** Image URLs a stored content shows (image blocks), read without re-validating it. */
export function contentImages(content: string): string[] {
  try {
    const blocks = (JSON.parse(content) as { blocks?: { type?: string; data?: { file?: { url?: unknown } } }[] }).blocks ?? [];
    return blocks.flatMap((b) => (b?.type === 'image' && typeof b.data?.file?.url === 'string' ? [b.data.file.url] : []));
  } catch {
    return [];
  }
}

/**
 * Called by BlogsService.update inside its transaction: checks the writer's version, keeps the
 * post as it was as a revision (trimmed to the newest 50 in the same transaction), drops pending
 * autosaves (the update supersedes them) and answers the post's next version and the image URLs
 * the revisions still need (so the update does not delete their files).
 */
export class RevisionKeeper {
  constructor(private readonly revisions: RevisionsRepository) {}

  async beforeUpdate(e: BeforeUpdate, trx: Kysely<Database>): Promise<{ version: number; images: string[] }> {
    const { revisions } = this;
    const row = await revisions.lockBlog(e.blogDbId, trx);
    if (!row) throw notFound();
    const current = Math.max(row.version, await revisions.pendingVersion(e.blogDbId, trx));
    if (e.expectedVersion !== undefined && e.expectedVersion !== current) throw conflict(REVISION_MESSAGES.conflict);
    await revisions.insertRevision(
      {
        id: newId(),
        blog_id: row.id,
        author_id: row.creator_id,
        version: row.version,
        reason: e.reason,
        title: row.title,
        description: row.description,
        tags: row.tags,
        image: row.image,
        content: row.content,
        draft: row.draft,
        images: JSON.stringify([...contentImages(row.content), ...(row.image ? [row.image] : [])]),
        created_at: nowIso(),
      },
      trx,
    );
    // A restore replaces pending work in progress too: keep it, so restoring never loses text.
    if (e.reason === 'restore') {
      for (const pending of await revisions.autosavesOf(row.id, trx)) {
        await revisions.insertRevision(
          {
            ...pending,
            id: newId(),
            blog_id: row.id,
            author_id: pending.author_id,
            reason: 'restore',
            draft: row.draft,
            images: JSON.stringify(contentImages(pending.content)),
            created_at: nowIso(),
          },
          trx,
        );
      }
    }
    await revisions.trim(row.id, trx);
    await revisions.deleteAutosaves(row.id, trx);
    return { version: current + 1, images: await revisions.images(row.id, trx) };
  }
}
