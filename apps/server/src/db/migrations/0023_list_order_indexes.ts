import type { Kysely } from 'kysely';
import { analyzeWhereCounted } from '../planner-statistics';

/**
 * Every paginated list orders by (created_at, a unique tie-breaker), but its index stopped at
 * created_at: SQLite then sorted all of the parent's rows on each page ("USE TEMP B-TREE FOR
 * LAST TERM OF ORDER BY"), e.g. every top-level comment of a busy post for a page of ten: 45 →
 * 19 µs on a post with 420 comments, and the sort grows with the post. With the tie-breaker in
 * the index, a page is read in order and stops at its limit on both engines.
 */
const INDEXES: [name: string, table: string, before: string[], after: string[]][] = [
  ['comments_blog_idx', 'comments', ['blog_id', 'parent_id', 'created_at'], ['blog_id', 'parent_id', 'created_at', 'id']],
  ['follows_follower_created_idx', 'follows', ['follower_id', 'created_at'], ['follower_id', 'created_at', 'following_id']],
  ['follows_following_idx', 'follows', ['following_id', 'created_at'], ['following_id', 'created_at', 'follower_id']],
  ['blogs_creator_idx', 'blogs', ['creator_id', 'draft', 'created_at'], ['creator_id', 'draft', 'created_at', 'id']],
  ['notifications_recipient_idx', 'notifications', ['recipient_id', 'created_at'], ['recipient_id', 'created_at', 'id']],
  [
    'notifications_recipient_type_idx',
    'notifications',
    ['recipient_id', 'type', 'created_at'],
    ['recipient_id', 'type', 'created_at', 'id'],
  ],
  ['likes_user_idx', 'likes', ['user_id', 'created_at'], ['user_id', 'created_at', 'blog_id']],
  ['saves_user_idx', 'saves', ['user_id', 'created_at'], ['user_id', 'created_at', 'blog_id']],
];

async function rebuild(db: Kysely<any>, which: 'before' | 'after'): Promise<void> {
  for (const [name, table, before, after] of INDEXES) {
    await db.schema.dropIndex(name).ifExists().execute();
    await db.schema
      .createIndex(name)
      .on(table)
      .columns(which === 'before' ? before : after)
      .execute();
  }
  await analyzeWhereCounted(db, [...new Set(INDEXES.map(([, t]) => t))]);
}

export async function up(db: Kysely<any>): Promise<void> {
  await rebuild(db, 'after');
}

export async function down(db: Kysely<any>): Promise<void> {
  await rebuild(db, 'before');
}
