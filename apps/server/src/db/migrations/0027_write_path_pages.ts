import { type Kysely, type SqlBool, sql } from 'kysely';
import { isPostgres } from '../dialect';
import { analyzeWhereCounted } from '../planner-statistics';

/**
 * Fewer pages touched by each like, comment and follow (issue 14, the SQLite write mix).
 *
 * Notifications had seven indexes, so each one written or retracted changed eight pages, most of a
 * write's commit (SQLite writes every changed page to the WAL). Three of them now hold only the
 * rows they are read for: the cleanup job reads read notifications by age (a new one is unread),
 * and a post's or comment's deletion looks up the rows that have one (a follow has neither; a
 * like has no comment). A like now changes two index pages fewer, a follow three, a comment one.
 *
 * SQLite: `blogs_ref_idx` answers the reference every like and comment reads (id, creator,
 * visibility) from the index alone. From the table, those columns sit after the post's body in
 * the row, so each read walked the row's overflow pages: 17 µs against 4 µs in a loop, 57 against
 * 23 with the request's own work between reads. Not on PostgreSQL: its rows keep the body out of
 * line (TOAST), so the row is one small read there, and an index would only cost its writes.
 */
const PARTIAL: [name: string, column: string, where: string, before: string[]][] = [
  ['notifications_read_age_idx', 'created_at', 'is_read = 1', ['is_read', 'created_at']],
  ['notifications_comment_idx', 'comment_id', 'comment_id IS NOT NULL', ['comment_id']],
  ['notifications_blog_idx', 'blog_id', 'blog_id IS NOT NULL', ['blog_id']],
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, column, where] of PARTIAL) {
    await db.schema.dropIndex(name).execute();
    await db.schema.createIndex(name).on('notifications').column(column).where(sql.raw<SqlBool>(where)).execute();
  }
  if (!isPostgres(db)) {
    await db.schema.createIndex('blogs_ref_idx').on('blogs').columns(['blog_id', 'id', 'creator_id', 'draft', 'hidden']).execute();
    await analyzeWhereCounted(db, ['notifications', 'blogs']);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [name, , , before] of PARTIAL) {
    await db.schema.dropIndex(name).execute();
    await db.schema.createIndex(name).on('notifications').columns(before).execute();
  }
  if (!isPostgres(db)) await db.schema.dropIndex('blogs_ref_idx').execute();
}
