import { MAX_REVISIONS_PER_POST } from '@inkwell/core';
import type { Insertable, Kysely } from 'kysely';
import { isPostgres } from '../../db/dialect';
import type { BlogAutosavesTable, BlogRevisionsTable, Database } from '../../db/schema';

export type RevisionRow = BlogRevisionsTable;
export type AutosaveRow = BlogAutosavesTable;

/** Queries of autosave (blog_autosaves) and revision history (blog_revisions). */
export class RevisionsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * The post's row, locked until the transaction ends on PostgreSQL, so version checks and the
   * writes after them cannot interleave with another save (SQLite runs one writer at a time).
   */
  lockBlog(blogDbId: string, trx: Kysely<Database>) {
    const query = trx.selectFrom('blogs').selectAll().where('id', '=', blogDbId);
    return (isPostgres(trx) ? query.forUpdate() : query).executeTakeFirst();
  }

  /** The highest version any pending autosave of the post has reached (0 if none). */
  async pendingVersion(blogDbId: string, trx: Kysely<Database> = this.db): Promise<number> {
    const row = await trx
      .selectFrom('blog_autosaves')
      .select((eb) => eb.fn.max('version').as('v'))
      .where('blog_id', '=', blogDbId)
      .executeTakeFirst();
    return Number(row?.v ?? 0);
  }

  findAutosave(blogDbId: string, authorId: string, db: Kysely<Database> = this.db) {
    return db.selectFrom('blog_autosaves').selectAll().where('blog_id', '=', blogDbId).where('author_id', '=', authorId).executeTakeFirst();
  }

  autosavesOf(blogDbId: string, trx: Kysely<Database>) {
    return trx
      .selectFrom('blog_autosaves')
      .select(['author_id', 'version', 'title', 'description', 'tags', 'image', 'content'])
      .where('blog_id', '=', blogDbId)
      .orderBy('version')
      .execute();
  }

  async upsertAutosave(row: AutosaveRow, trx: Kysely<Database>): Promise<void> {
    const { blog_id, author_id, ...rest } = row;
    await trx
      .insertInto('blog_autosaves')
      .values(row)
      .onConflict((oc) => oc.columns(['blog_id', 'author_id']).doUpdateSet(rest))
      .execute();
  }

  async deleteAutosaves(blogDbId: string, trx: Kysely<Database>, authorId?: string): Promise<void> {
    let query = trx.deleteFrom('blog_autosaves').where('blog_id', '=', blogDbId);
    if (authorId) query = query.where('author_id', '=', authorId);
    await query.execute();
  }

  async insertRevision(row: Insertable<BlogRevisionsTable>, trx: Kysely<Database>): Promise<void> {
    await trx.insertInto('blog_revisions').values(row).execute();
  }

  /** Keeps the newest MAX_REVISIONS_PER_POST (ids are time-ordered UUIDv7). */
  async trim(blogDbId: string, trx: Kysely<Database>): Promise<void> {
    const newest = await trx
      .selectFrom('blog_revisions')
      .select('id')
      .where('blog_id', '=', blogDbId)
      .orderBy('id', 'desc')
      .offset(MAX_REVISIONS_PER_POST - 1)
      .limit(1)
      .executeTakeFirst();
    if (newest) await trx.deleteFrom('blog_revisions').where('blog_id', '=', blogDbId).where('id', '<', newest.id).execute();
  }

  /** Image URLs shown by the post's revisions: their uploads stay while a revision may be restored. */
  async images(blogDbId: string, trx: Kysely<Database>): Promise<string[]> {
    const rows = await trx.selectFrom('blog_revisions').select('images').where('blog_id', '=', blogDbId).execute();
    return [...new Set(rows.flatMap((r) => JSON.parse(r.images) as string[]))];
  }

  list(blogDbId: string) {
    return this.db
      .selectFrom('blog_revisions')
      .select(['id', 'version', 'reason', 'title', 'draft', 'created_at'])
      .where('blog_id', '=', blogDbId)
      .orderBy('id', 'desc')
      .limit(MAX_REVISIONS_PER_POST)
      .execute();
  }

  find(blogDbId: string, revisionId: string) {
    return this.db.selectFrom('blog_revisions').selectAll().where('blog_id', '=', blogDbId).where('id', '=', revisionId).executeTakeFirst();
  }
}
