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
 * Backfill: the rows `uploads.blog_id` knows, then every post that names one of its author's
 * uploads as its featured image or in its content. One pass over the posts in id order, 500 at a
 * time, each batch's addresses looked up among its authors' uploads: linear in the posts, not
 * posts times uploads.
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
  const hasUploads = await db.selectFrom('uploads').select('id').where('kind', '<>', 'card').limit(1).executeTakeFirst();
  if (!hasUploads) return;
  let after: string | null = null;
  for (;;) {
    let q = db.selectFrom('blogs').select(['id', 'creator_id', 'image', 'content']).orderBy('id').limit(BATCH);
    if (after !== null) q = q.where('id', '>', after);
    const posts: { id: string; creator_id: string; image: string | null; content: string }[] = await q.execute();
    if (!posts.length) return;
    after = posts[posts.length - 1]!.id;
    const named = posts.map((p) => ({ ...p, urls: new Set([...(p.image ? [p.image] : []), ...urlsIn(p.content)]) }));
    const urls = [...new Set(named.flatMap((p) => [...p.urls]))];
    if (!urls.length) continue;
    const owners = [...new Set(posts.map((p) => p.creator_id))];
    const uploads: { id: string; owner_id: string; url: string }[] = [];
    for (let i = 0; i < urls.length; i += BATCH) {
      uploads.push(
        ...(await db
          .selectFrom('uploads')
          .select(['id', 'owner_id', 'url'])
          .where('owner_id', 'in', owners)
          .where('url', 'in', urls.slice(i, i + BATCH))
          .where('kind', '<>', 'card')
          .execute()),
      );
    }
    const uses = named.flatMap((p) =>
      uploads.filter((u) => u.owner_id === p.creator_id && p.urls.has(u.url)).map((u) => ({ blog_id: p.id, upload_id: u.id })),
    );
    for (let i = 0; i < uses.length; i += BATCH)
      await db
        .insertInto('upload_uses')
        .values(uses.slice(i, i + BATCH))
        .onConflict((oc) => oc.doNothing())
        .execute();
  }
}

const BATCH = 500;

/** Every "url" value in a post's stored blocks (image files among them; the rest match no upload). */
function urlsIn(content: string): string[] {
  return [...content.matchAll(/"url":"((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1]}"`) as string);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('upload_uses').execute();
}
