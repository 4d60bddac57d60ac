import { type Insertable, type Kysely, type SqlBool, sql } from 'kysely';
import type { Database, ModerationActionsTable, ReportsTable, ReportTargetType } from '../../db/schema';

/** A page boundary of the report queue: the group's newest open report, then its key. */
export interface GroupKey {
  latestAt: string;
  targetType: string;
  targetId: string;
}
/** A page boundary of the audit log. */
export interface AuditKey {
  createdAt: string;
  id: string;
}

/**
 * 'open' written into the statement, not bound: SQLite uses a partial index (WHERE status = 'open')
 * only when the query's own condition visibly matches it.
 */
const OPEN = sql.lit('open' as const);

/** Reports, the audit log and the hidden bits (issue 15). Queries only; the rules are in the service. */
export class ModerationRepository {
  constructor(private readonly db: Kysely<Database>) {}

  insertReport(row: Insertable<ReportsTable>, db: Kysely<Database> = this.db) {
    return db.insertInto('reports').values(row).execute();
  }

  findReport(id: string, db: Kysely<Database> = this.db) {
    return db.selectFrom('reports').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Open report groups, newest open report first (reports_open_target_idx holds the whole grouping). */
  async openGroups(after: GroupKey | null, limit: number) {
    let q = this.db
      .selectFrom('reports')
      .select(['target_type', 'target_id', (eb) => eb.fn.max('created_at').as('latest_at')])
      .where('status', '=', OPEN)
      .groupBy(['target_type', 'target_id']);
    if (after) {
      const latest = sql`max(created_at)`;
      q = q.having(
        sql<SqlBool>`(${latest} < ${after.latestAt} or (${latest} = ${after.latestAt} and (target_type < ${after.targetType}
          or (target_type = ${after.targetType} and target_id < ${after.targetId}))))`,
      );
    }
    const rows = await q
      .orderBy('latest_at', 'desc')
      .orderBy('target_type', 'desc')
      .orderBy('target_id', 'desc')
      .limit(limit + 1)
      .execute();
    return rows.map((r) => ({ targetType: r.target_type, targetId: r.target_id, latestAt: String(r.latest_at) }));
  }

  /** The open reports of these targets, with their reporters, newest first. */
  openReportsOf(targets: { targetType: string; targetId: string }[]) {
    if (!targets.length) return Promise.resolve([]);
    return this.db
      .selectFrom('reports')
      .innerJoin('users as reporter', 'reporter.id', 'reports.reporter_id')
      .select([
        'reports.id',
        'reports.target_type',
        'reports.target_id',
        'reports.reason',
        'reports.text',
        'reports.created_at',
        'reporter.id as reporter_id',
        'reporter.username as reporter_username',
        'reporter.name as reporter_name',
      ])
      .where('reports.status', '=', OPEN)
      .where((eb) =>
        eb.or(
          targets.map((t) =>
            eb.and([eb('reports.target_type', '=', t.targetType as ReportTargetType), eb('reports.target_id', '=', t.targetId)]),
          ),
        ),
      )
      .orderBy('reports.created_at', 'desc')
      .execute();
  }

  /** Closes every open report of an item (a hide closes them as 'actioned'). */
  closeReportsOf(targetType: ReportTargetType, targetId: string, by: string | null, now: string, db: Kysely<Database>) {
    return db
      .updateTable('reports')
      .set({ status: 'actioned', resolved_at: now, resolved_by: by })
      .where('target_type', '=', targetType)
      .where('target_id', '=', targetId)
      .where('status', '=', OPEN)
      .execute();
  }

  async closeReport(id: string, by: string | null, now: string, db: Kysely<Database>): Promise<boolean> {
    const r = await db
      .updateTable('reports')
      .set({ status: 'dismissed', resolved_at: now, resolved_by: by })
      .where('id', '=', id)
      .where('status', '=', OPEN)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  insertAudit(row: Insertable<ModerationActionsTable>, db: Kysely<Database>) {
    return db.insertInto('moderation_actions').values(row).execute();
  }

  /** The audit log, newest first, with each moderator's current name. */
  auditPage(after: AuditKey | null, limit: number) {
    let q = this.db
      .selectFrom('moderation_actions as a')
      .leftJoin('users as m', 'm.id', 'a.moderator_id')
      .select([
        'a.id',
        'a.moderator_id',
        'a.moderator_username',
        'a.action',
        'a.target_type',
        'a.target_id',
        'a.target_label',
        'a.reason',
        'a.created_at',
        'm.username as m_username',
        'm.name as m_name',
      ]);
    if (after) {
      q = q.where((eb) =>
        eb.or([eb('a.created_at', '<', after.createdAt), eb.and([eb('a.created_at', '=', after.createdAt), eb('a.id', '<', after.id)])]),
      );
    }
    return q
      .orderBy('a.created_at', 'desc')
      .orderBy('a.id', 'desc')
      .limit(limit + 1)
      .execute();
  }

  // ---- Targets ----

  postsByIds(ids: string[]) {
    if (!ids.length) return Promise.resolve([]);
    return this.db
      .selectFrom('blogs')
      .innerJoin('users as u', 'u.id', 'blogs.creator_id')
      .select(['blogs.id', 'blogs.blog_id', 'blogs.title', 'blogs.hidden', 'u.id as author_id', 'u.username', 'u.name', 'u.suspended_at'])
      .where('blogs.id', 'in', ids)
      .execute();
  }

  commentsByIds(ids: string[]) {
    if (!ids.length) return Promise.resolve([]);
    return this.db
      .selectFrom('comments')
      .innerJoin('blogs', 'blogs.id', 'comments.blog_id')
      .innerJoin('users as u', 'u.id', 'comments.user_id')
      .select([
        'comments.id',
        'comments.comment',
        'comments.hidden',
        'blogs.blog_id',
        'u.id as author_id',
        'u.username',
        'u.name',
        'u.suspended_at',
      ])
      .where('comments.id', 'in', ids)
      .execute();
  }

  usersByIds(ids: string[]) {
    if (!ids.length) return Promise.resolve([]);
    return this.db.selectFrom('users').select(['id', 'username', 'name', 'suspended_at']).where('id', 'in', ids).execute();
  }

  // ---- Hidden bits ----

  async hiddenBits(table: 'blogs' | 'comments', id: string, db: Kysely<Database> = this.db): Promise<number> {
    const row = await db.selectFrom(table).select('hidden').where('id', '=', id).executeTakeFirst();
    return Number(row?.hidden ?? 0);
  }

  commentRef(id: string, db: Kysely<Database> = this.db) {
    return db.selectFrom('comments').select(['blog_id', 'parent_id', 'hidden']).where('id', '=', id).executeTakeFirst();
  }

  async publicBlogId(blogDbId: string, db: Kysely<Database> = this.db): Promise<string | undefined> {
    return (await db.selectFrom('blogs').select('blog_id').where('id', '=', blogDbId).executeTakeFirst())?.blog_id;
  }

  /** Sets (on) or clears a hidden bit on one blog and its blog_tags copy. */
  async setBlogBit(blogDbId: string, bit: number, on: boolean, db: Kysely<Database>): Promise<void> {
    await db
      .updateTable('blogs')
      .set({ hidden: bitExpr(bit, on) })
      .where('id', '=', blogDbId)
      .execute();
    await copyBitsToTags(db).where('blog_id', '=', blogDbId).execute();
  }

  async setCommentBit(commentId: string, bit: number, on: boolean, db: Kysely<Database>): Promise<void> {
    await db
      .updateTable('comments')
      .set({ hidden: bitExpr(bit, on) })
      .where('id', '=', commentId)
      .execute();
  }

  /** A suspension's bit on everything a user wrote: blogs (and their tags) and comments. */
  async setAuthorBit(userId: string, bit: number, on: boolean, db: Kysely<Database>): Promise<void> {
    await db
      .updateTable('blogs')
      .set({ hidden: bitExpr(bit, on) })
      .where('creator_id', '=', userId)
      .execute();
    await copyBitsToTags(db)
      .where('blog_id', 'in', db.selectFrom('blogs').select('id').where('creator_id', '=', userId))
      .execute();
    await db
      .updateTable('comments')
      .set({ hidden: bitExpr(bit, on) })
      .where('user_id', '=', userId)
      .execute();
  }

  /** Blogs with comments by the user, and the parents of the user's replies: whose counts a suspension moves. */
  async commentCountsTouchedBy(userId: string, db: Kysely<Database>) {
    const rows = await db.selectFrom('comments').select(['blog_id', 'parent_id']).where('user_id', '=', userId).execute();
    return {
      blogIds: [...new Set(rows.map((r) => r.blog_id))],
      parentIds: [...new Set(rows.flatMap((r) => (r.parent_id ? [r.parent_id] : [])))],
    };
  }

  setRole(userId: string, role: 'user' | 'moderator' | 'admin', db: Kysely<Database>) {
    return db.updateTable('users').set({ role }).where('id', '=', userId).execute();
  }

  setSuspended(userId: string, at: string | null, db: Kysely<Database>) {
    return db.updateTable('users').set({ suspended_at: at }).where('id', '=', userId).execute();
  }
}

/** `hidden | bit` or `hidden & ~bit`, with the mask computed here so PostgreSQL never guesses a parameter's type for `~`. */
function bitExpr(bit: number, on: boolean) {
  return on ? sql<number>`hidden | ${bit}` : sql<number>`hidden & ${0x7fff & ~bit}`;
}

/** blog_tags keeps a copy of its blog's hidden bits for the tag index. */
function copyBitsToTags(db: Kysely<Database>) {
  return db.updateTable('blog_tags').set((eb) => ({
    hidden: eb.selectFrom('blogs').select('blogs.hidden').whereRef('blogs.id', '=', 'blog_tags.blog_id'),
  }));
}
