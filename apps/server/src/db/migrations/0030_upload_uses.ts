import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * `upload_uses`: every post that shows an upload (featured image or a block), not only the first.
 * `uploads.blog_id` named one post, so an image copied into a second post, or an avatar shown in a
 * post, lost its file when that one post was deleted or edited without it while the other still
 * showed it. A file now goes only when its last use goes and it is not its owner's profile picture
 * (UploadsService.releasedByBlog); `uploads.blog_id` stays one of the posts using it, so that
 * "never attached" (the unattached-uploads job) and ON DELETE CASCADE keep their meaning.
 *
 * Backfill: the rows `uploads.blog_id` knows, and every post of the upload's owner whose featured
 * image is it or whose content names it (once: each owner's posts against each owner's uploads).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const idType = sql.raw(pg ? 'uuid' : 'text') as any;
  await db.schema
    .createTable('upload_uses')
    .addColumn('blog_id', idType, (c) => c.notNull().references('blogs.id').onDelete('cascade'))
    .addColumn('upload_id', idType, (c) => c.notNull().references('uploads.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('upload_uses_pk', ['blog_id', 'upload_id'])
    .execute();
  await db.schema.createIndex('upload_uses_upload_idx').on('upload_uses').column('upload_id').execute();

  await sql`INSERT INTO upload_uses (blog_id, upload_id)
    SELECT blog_id, id FROM uploads WHERE blog_id IS NOT NULL AND kind <> 'card'`.execute(db);
  const names = pg ? sql`strpos(b.content, u.url) > 0` : sql`instr(b.content, u.url) > 0`;
  await sql`INSERT INTO upload_uses (blog_id, upload_id)
    SELECT b.id, u.id FROM uploads u JOIN blogs b ON b.creator_id = u.owner_id
    WHERE u.kind <> 'card' AND (b.image = u.url OR ${names})
      AND NOT EXISTS (SELECT 1 FROM upload_uses x WHERE x.blog_id = b.id AND x.upload_id = u.id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('upload_uses').execute();
}
