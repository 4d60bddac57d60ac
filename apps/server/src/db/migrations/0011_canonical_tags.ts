import { normalizeTag } from '@inkwell/core';
import type { Kysely } from 'kysely';

/**
 * Rewrites stored tags to their canonical form (normalizeTag: 'node.js' becomes 'nodejs'), so
 * older posts and seeded ones land on the same tag page as new ones. Only blogs carrying a
 * non-canonical tag are touched; the distinct tags are few, so they are found through blog_tags.
 * The full-text index keeps the old words (it matches 'node' and 'js' as before).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const distinct = await db.selectFrom('blog_tags').select('tag').distinct().execute();
  const renamed = distinct.map((r) => r.tag as string).filter((tag) => normalizeTag(tag) !== tag);
  if (renamed.length === 0) return;

  for (let start = 0; start < renamed.length; start += 100) {
    const olds = renamed.slice(start, start + 100);
    const blogs = await db
      .selectFrom('blogs')
      .select(['id', 'tags'])
      .where('id', 'in', db.selectFrom('blog_tags').select('blog_id').where('tag', 'in', olds))
      .execute();
    for (const blog of blogs) {
      const tags = [...new Set((JSON.parse(blog.tags) as string[]).map(normalizeTag).filter(Boolean))];
      await db
        .updateTable('blogs')
        .set({ tags: JSON.stringify(tags) })
        .where('id', '=', blog.id)
        .execute();
    }
    for (const old of olds) {
      const tag = normalizeTag(old);
      // A blog that already has the canonical tag keeps that row; the old one goes.
      if (tag) {
        await db
          .updateTable('blog_tags')
          .set({ tag })
          .where('tag', '=', old)
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('blog_tags as other')
                  .select('other.blog_id')
                  .whereRef('other.blog_id', '=', 'blog_tags.blog_id')
                  .where('other.tag', '=', tag),
              ),
            ),
          )
          .execute();
      }
      await db.deleteFrom('blog_tags').where('tag', '=', old).execute();
    }
  }
}

/** Canonical tags cannot be told apart again; going down leaves them as they are. */
export async function down(): Promise<void> {}
