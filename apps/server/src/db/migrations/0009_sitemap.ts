import type { Kysely } from 'kysely';

/**
 * Sitemap files page through published posts by id (keyset, `id > last`) and list each post's
 * URL and lastmod. This index holds all of that, so a 50,000-URL file is one index range read
 * on either engine, never 50,000 row lookups (on SQLite updated_at sits behind the large content
 * column, in its overflow pages).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('blogs_sitemap_idx').on('blogs').columns(['draft', 'id', 'blog_id', 'updated_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('blogs_sitemap_idx').execute();
}
