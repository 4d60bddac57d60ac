import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, UploadsTable } from '../../db/schema';

export type UploadRow = Selectable<UploadsTable>;

/** Bound parameters per IN list, well under SQLite's and PostgreSQL's limits. */
const CHUNK = 500;
const chunks = <T>(list: T[]): T[][] =>
  Array.from({ length: Math.ceil(list.length / CHUNK) }, (_, i) => list.slice(i * CHUNK, (i + 1) * CHUNK));

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
   * Links the owner's not-yet-linked uploads (or ones already on this blog) to the blog.
   * An upload already linked to another blog keeps that link: one file has one owning blog.
   */
  async attach(blogId: string, ownerId: string, urls: string[], db: Kysely<Database> = this.db): Promise<number> {
    let n = 0;
    for (const part of chunks([...new Set(urls)])) {
      const r = await db
        .updateTable('uploads')
        .set({ blog_id: blogId })
        .where('owner_id', '=', ownerId)
        .where('url', 'in', part)
        .where((eb) => eb.or([eb('blog_id', 'is', null), eb('blog_id', '=', blogId)]))
        .executeTakeFirst();
      n += Number(r.numUpdatedRows);
    }
    return n;
  }

  listForBlog(blogId: string, db: Kysely<Database> = this.db) {
    return db.selectFrom('uploads').select(['id', 'url', 'storage_key']).where('blog_id', '=', blogId).execute();
  }

  /** Rows among `ids` not linked to any blog (uploads made for a save that then failed). */
  async listUnattached(ids: string[], db: Kysely<Database> = this.db) {
    const rows = [];
    for (const part of chunks(ids)) {
      rows.push(
        ...(await db.selectFrom('uploads').select(['id', 'storage_key']).where('id', 'in', part).where('blog_id', 'is', null).execute()),
      );
    }
    return rows;
  }

  async deleteByIds(ids: string[], db: Kysely<Database> = this.db): Promise<void> {
    for (const part of chunks(ids)) await db.deleteFrom('uploads').where('id', 'in', part).execute();
  }
}
