import type { Insertable, Kysely, Selectable } from 'kysely';
import { isPostgres } from '../../db/dialect';
import { inLists } from '../../db/in-lists';
import type { Database, UploadsTable } from '../../db/schema';

export type UploadRow = Selectable<UploadsTable>;

/** Uploaded image records. Methods take an optional transaction so blogs can use them inside theirs. */
export class UploadsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  insert(row: Insertable<UploadsTable>, db: Kysely<Database> = this.db) {
    return db.insertInto('uploads').values(row).execute();
  }

  findById(id: string, db: Kysely<Database> = this.db) {
    return db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * Records that the blog shows the owner's uploads among `urls` (an upload of someone else is
   * never linked: its owner decides when it goes). The first blog to use one becomes its
   * `blog_id`. Returns how many uploads the blog newly uses.
   */
  async attach(blogId: string, ownerId: string, urls: string[], db: Kysely<Database> = this.db): Promise<number> {
    let n = 0;
    for (const part of inLists(urls)) {
      const ids = (
        await db
          .selectFrom('uploads')
          .select('id')
          .where('owner_id', '=', ownerId)
          .where('url', 'in', part)
          .where('kind', '!=', 'card')
          .execute()
      ).map((r) => r.id);
      if (!ids.length) continue;
      const r = await db
        .insertInto('upload_uses')
        .values(ids.map((upload_id) => ({ blog_id: blogId, upload_id })))
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      n += Number(r.numInsertedOrUpdatedRows ?? 0);
      await db.updateTable('uploads').set({ blog_id: blogId }).where('id', 'in', ids).where('blog_id', 'is', null).execute();
    }
    return n;
  }

  /**
   * The blog's uploads (by use or as their `blog_id`) whose URL is not in `keepUrls`, with the
   * upload rows locked on PostgreSQL until commit: two posts dropping one shared image at once
   * must each see the other's change before deciding that theirs was the last use.
   */
  async lockUsedBy(blogId: string, keepUrls: string[], db: Kysely<Database>) {
    const query = db
      .selectFrom('uploads')
      .select(['id', 'url', 'storage_key', 'blog_id'])
      .where((eb) =>
        eb.or([
          eb('blog_id', '=', blogId),
          eb('id', 'in', eb.selectFrom('upload_uses').select('upload_id').where('upload_uses.blog_id', '=', blogId)),
        ]),
      )
      .orderBy('id');
    const rows = await (isPostgres(db) ? query.forUpdate() : query).execute();
    const keep = new Set(keepUrls);
    return rows.filter((r) => !keep.has(r.url));
  }

  async removeUses(blogId: string, uploadIds: string[], db: Kysely<Database>): Promise<void> {
    for (const part of inLists(uploadIds))
      await db.deleteFrom('upload_uses').where('blog_id', '=', blogId).where('upload_id', 'in', part).execute();
  }

  /** For each of `uploadIds` still used by some post: one such post. */
  async otherUses(uploadIds: string[], db: Kysely<Database>): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (const part of inLists(uploadIds)) {
      // Every use of each: an image is in a handful of posts (PostgreSQL has no min() for uuid).
      const rows = await db
        .selectFrom('upload_uses')
        .select(['upload_id', 'blog_id'])
        .where('upload_id', 'in', part)
        .orderBy('blog_id')
        .execute();
      for (const r of rows) if (!found.has(r.upload_id)) found.set(r.upload_id, r.blog_id);
    }
    return found;
  }

  /** Ids among `uploadIds` that are their owner's current profile picture. */
  async currentAvatars(uploadIds: string[], db: Kysely<Database>): Promise<Set<string>> {
    const found = new Set<string>();
    for (const part of inLists(uploadIds)) {
      const rows = await db
        .selectFrom('uploads')
        .innerJoin('users', (j) => j.onRef('users.id', '=', 'uploads.owner_id').onRef('users.profile_pic', '=', 'uploads.url'))
        .select('uploads.id')
        .where('uploads.id', 'in', part)
        .execute();
      for (const r of rows) found.add(r.id);
    }
    return found;
  }

  setBlog(uploadId: string, blogId: string | null, db: Kysely<Database>) {
    return db.updateTable('uploads').set({ blog_id: blogId }).where('id', '=', uploadId).execute();
  }

  /** Rows among `ids` not linked to any blog (uploads made for a save that then failed). */
  async listUnattached(ids: string[], db: Kysely<Database> = this.db) {
    const rows = [];
    for (const part of inLists(ids)) {
      rows.push(
        ...(await db.selectFrom('uploads').select(['id', 'storage_key']).where('id', 'in', part).where('blog_id', 'is', null).execute()),
      );
    }
    return rows;
  }

  /** Deletes the generated social cards of one post, or of every post of one author; their keys. */
  async deleteCards(of: { blogId: string } | { ownerId: string }, db: Kysely<Database>): Promise<string[]> {
    const rows = await db
      .deleteFrom('uploads')
      .where('kind', '=', 'card')
      .where((eb) => ('blogId' in of ? eb('blog_id', '=', of.blogId) : eb('owner_id', '=', of.ownerId)))
      .returning('storage_key')
      .execute();
    return rows.map((r) => r.storage_key);
  }

  async deleteByIds(ids: string[], db: Kysely<Database> = this.db): Promise<void> {
    for (const part of inLists(ids)) await db.deleteFrom('uploads').where('id', 'in', part).execute();
  }
}
