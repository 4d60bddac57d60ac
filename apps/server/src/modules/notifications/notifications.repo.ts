import { type Expression, type Insertable, type Kysely, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import { isPostgres } from '../../db/dialect';
import { prepared } from '../../db/prepared';
import type { Database, NotificationsTable } from '../../db/schema';
import { noticeShownSql } from '../../lib/policies';
import type { PlannedNotices } from '../../lib/tx';

type NoticeQuery = SelectQueryBuilder<Database, 'notifications', { recipient_id: string }>;

export type NotificationFilterValue = 'all' | 'unread' | 'like' | 'comment' | 'follow';

/** The page's filters: Likes include comment likes, Comments include replies (SPEC.md 2). */
const TYPES_OF: Record<Exclude<NotificationFilterValue, 'all' | 'unread'>, string[]> = {
  like: ['like', 'comment-like'],
  comment: ['comment', 'reply'],
  follow: ['follow'],
};

// A like, comment or follow writes one notification and an undo deletes it by key: compiled once.
const insertOne = prepared(
  (
    db,
    id: string,
    recipientId: string,
    senderId: string | null,
    type: string,
    blogId: string | null,
    commentId: string | null,
    message: string | null,
    createdAt: string,
  ) =>
    db.insertInto('notifications').values({
      id,
      recipient_id: recipientId,
      sender_id: senderId,
      type,
      blog_id: blogId,
      comment_id: commentId,
      message,
      is_read: 0,
      created_at: createdAt,
    }),
);
const byKey = (db: Kysely<Database>, recipientId: string, senderId: string, type: string) =>
  db.deleteFrom('notifications').where('recipient_id', '=', recipientId).where('sender_id', '=', senderId).where('type', '=', type);

/** A notice a single-statement toggle writes (PostgreSQL): a like's or a follow's. */
export interface ToggleNoticeRow {
  id: string;
  recipientId: string;
  senderId: string;
  type: string;
  blogId: string | null;
  createdAt: string;
}

/**
 * Part of a larger statement (a data-modifying WITH): inserts the notice only when `when` holds,
 * so the toggle's one statement creates it exactly when it adds the like or follow.
 */
export function insertNoticeWhen(db: Kysely<Database>, n: ToggleNoticeRow, when: Expression<SqlBool>) {
  return db
    .insertInto('notifications')
    .columns(['id', 'recipient_id', 'sender_id', 'type', 'blog_id', 'is_read', 'created_at'])
    .expression(
      db
        .selectNoFrom([
          sql`${n.id}`.as('id'),
          sql`${n.recipientId}`.as('recipient_id'),
          sql`${n.senderId}`.as('sender_id'),
          sql`${n.type}`.as('type'),
          sql`${n.blogId}`.as('blog_id'),
          sql`0`.as('is_read'),
          sql`${n.createdAt}`.as('created_at'),
        ])
        .where(when),
    )
    .returning('id');
}

/** Part of a larger statement: deletes the notice of `key` (a like's has a post) only when `when` holds. */
export function deleteNoticeWhen(db: Kysely<Database>, key: NotificationKey, when: Expression<SqlBool>) {
  const q = byKey(db, key.recipientId, key.senderId, key.type).where(when);
  return (key.blogId ? q.where('blog_id', '=', key.blogId) : q).returning('id');
}

/**
 * Part of a larger statement (PostgreSQL): any number of notices about one subject (a comment's
 * reply and comment notices), passed as arrays so that the SQL text is the same for 0, 1 or 2.
 */
export function insertNotices(
  db: Kysely<Database>,
  notices: Pick<PlannedNotices, 'ids' | 'recipientIds' | 'types'>,
  about: { senderId: string; blogId: string; commentId: string; createdAt: string },
) {
  return db
    .insertInto('notifications')
    .columns(['id', 'recipient_id', 'sender_id', 'type', 'blog_id', 'comment_id', 'is_read', 'created_at'])
    .expression(
      sql`select n.id, n.recipient_id, ${about.senderId}, n.type, ${about.blogId}, ${about.commentId}, 0, ${about.createdAt}
        from unnest(${notices.ids}::uuid[], ${notices.recipientIds}::uuid[], ${notices.types}::text[]) as n(id, recipient_id, type)`,
    );
}

const deleteKey = prepared((db, recipientId: string, senderId: string, type: string) => byKey(db, recipientId, senderId, type));
const deleteBlogKey = prepared((db, recipientId: string, senderId: string, type: string, blogId: string) =>
  byKey(db, recipientId, senderId, type).where('blog_id', '=', blogId),
);

export interface NotificationKey {
  recipientId: string;
  senderId: string;
  type: string;
  blogId?: string | null;
  commentId?: string | null;
}

/**
 * Leaves out what someone the recipient blocked or muted sent before the block or mute (issue 15);
 * new ones are never created. Also what a suspended account sent, until it is unsuspended (a
 * suspended spammer's follows and likes stop reaching people at once). The rule is the policy's.
 */
const fromUnsilenced = noticeShownSql('notifications.recipient_id', 'notifications.sender_id');

function withSubjects(db: Kysely<Database>) {
  return db
    .selectFrom('notifications')
    .leftJoin('users as sender', 'sender.id', 'notifications.sender_id')
    .leftJoin('blogs as blog', 'blog.id', 'notifications.blog_id')
    .leftJoin('comments as comment', 'comment.id', 'notifications.comment_id')
    .select([
      'notifications.id',
      'notifications.type',
      'notifications.message',
      'notifications.is_read',
      'notifications.created_at',
      'notifications.recipient_id',
      'sender.id as sender_id',
      'sender.name as sender_name',
      'sender.username as sender_username',
      'sender.profile_pic as sender_profile_pic',
      'blog.blog_id as blog_public_id',
      'blog.title as blog_title',
      'blog.draft as blog_draft',
      'blog.hidden as blog_hidden',
      'blog.creator_id as blog_creator_id',
      'comment.id as comment_id',
      'comment.parent_id as comment_parent_id',
      'comment.comment as comment_text',
      'comment.user_id as comment_user_id',
      'comment.hidden as comment_hidden',
    ]);
}

export type NotificationRow = Awaited<ReturnType<ReturnType<typeof withSubjects>['executeTakeFirstOrThrow']>>;

const unread = prepared((db, recipientId: string) =>
  db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('recipient_id', '=', recipientId)
    .where('is_read', '=', 0)
    .where(fromUnsilenced),
);

/**
 * Users with unread notices about some comments or any reply below them: one comment (its
 * deletion), or every comment of a user (their account's deletion, the user left out). Each level
 * of the recursion, and the notices of each comment, are read through their index: on
 * PostgreSQL through LATERAL (OFFSET 0 keeps it so), which otherwise hashes the whole comments
 * table for the recursion and every unread notice for the match (comments.repo.ts says more).
 */
async function unreadAboutCommentsBelow(db: Kysely<Database>, start: { commentId: string } | { userId: string }, limit: number) {
  const pg = isPostgres(db);
  const first = 'commentId' in start ? sql`comments.id = ${start.commentId}` : sql`comments.user_id = ${start.userId}`;
  const nextLevel = pg
    ? sql`SELECT c.id FROM subtree CROSS JOIN LATERAL (SELECT comments.id FROM comments WHERE comments.parent_id = subtree.id OFFSET 0) c`
    : sql`SELECT comments.id FROM comments INNER JOIN subtree ON comments.parent_id = subtree.id`;
  const unread =
    'userId' in start ? sql`notifications.is_read = 0 AND notifications.recipient_id <> ${start.userId}` : sql`notifications.is_read = 0`;
  const notices = pg
    ? sql`subtree CROSS JOIN LATERAL (
        SELECT notifications.recipient_id FROM notifications WHERE notifications.comment_id = subtree.id AND ${unread} OFFSET 0
      ) n`
    : sql`subtree INNER JOIN notifications ON notifications.comment_id = subtree.id AND ${unread}`;
  const recipients = sql<{ recipient_id: string }>`(WITH RECURSIVE subtree(id) AS (
      SELECT comments.id FROM comments WHERE ${first}
      UNION ALL
      ${nextLevel}
    ) SELECT ${sql.raw(pg ? 'n' : 'notifications')}.recipient_id FROM ${notices})`;
  // Kysely's outer SELECT: db/write-watch.ts reads a raw WITH as a write.
  const rows = await db.selectFrom(recipients.as('r')).select('r.recipient_id').distinct().limit(limit).execute();
  return rows.map((r) => r.recipient_id);
}

export class NotificationsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insertMany(rows: Insertable<NotificationsTable>[], db: Kysely<Database>): Promise<void> {
    const [one] = rows;
    if (rows.length === 1 && one) {
      await insertOne(
        db,
        one.id,
        one.recipient_id,
        one.sender_id ?? null,
        one.type,
        one.blog_id ?? null,
        one.comment_id ?? null,
        one.message ?? null,
        one.created_at,
      );
    } else if (rows.length) await db.insertInto('notifications').values(rows).execute();
  }

  findWithSubjects(ids: string[], db: Kysely<Database> = this.db) {
    if (!ids.length) return Promise.resolve([]);
    return withSubjects(db).where('notifications.id', 'in', ids).execute();
  }

  /**
   * A page of a recipient's notifications, newest first; one extra row for hasMore. It starts
   * after `from` (the previous page's last row) when given, else `offset` rows in.
   */
  list(recipientId: string, filter: NotificationFilterValue, limit: number, from: { createdAt: string; id: string } | number) {
    let q = withSubjects(this.db).where('notifications.recipient_id', '=', recipientId).where(fromUnsilenced);
    if (filter === 'unread') q = q.where('notifications.is_read', '=', 0);
    else if (filter !== 'all') q = q.where('notifications.type', 'in', TYPES_OF[filter]);
    if (typeof from !== 'number') {
      // created_at <= … bounds the index range; the OR breaks ties between rows of the same instant.
      q = q
        .where('notifications.created_at', '<=', from.createdAt)
        .where((eb) => eb.or([eb('notifications.created_at', '<', from.createdAt), eb('notifications.id', '<', from.id)]));
    }
    return q
      .orderBy('notifications.created_at', 'desc')
      .orderBy('notifications.id', 'desc')
      .limit(limit + 1)
      .offset(typeof from === 'number' ? from : 0)
      .execute();
  }

  async unreadCount(recipientId: string, db: Kysely<Database> = this.db): Promise<number> {
    const { rows } = await unread(db, recipientId);
    return Number(rows[0]?.n ?? 0);
  }

  async markRead(recipientId: string, id: string): Promise<boolean> {
    const r = await this.db
      .updateTable('notifications')
      .set({ is_read: 1 })
      .where('id', '=', id)
      .where('recipient_id', '=', recipientId)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  markAllRead(recipientId: string) {
    return this.db
      .updateTable('notifications')
      .set({ is_read: 1 })
      .where('recipient_id', '=', recipientId)
      .where('is_read', '=', 0)
      .execute();
  }

  async delete(recipientId: string, id: string): Promise<boolean> {
    const r = await this.db.deleteFrom('notifications').where('id', '=', id).where('recipient_id', '=', recipientId).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  deleteAll(recipientId: string) {
    return this.db.deleteFrom('notifications').where('recipient_id', '=', recipientId).execute();
  }

  /** Undo of a like or follow: removes the notification that action created. */
  deleteByKey(key: NotificationKey, db: Kysely<Database>) {
    // An unlike or unfollow (the write mix's undo): compiled once.
    if (!key.commentId) {
      return key.blogId
        ? deleteBlogKey(db, key.recipientId, key.senderId, key.type, key.blogId)
        : deleteKey(db, key.recipientId, key.senderId, key.type);
    }
    let q = byKey(db, key.recipientId, key.senderId, key.type).where('comment_id', '=', key.commentId);
    if (key.blogId) q = q.where('blog_id', '=', key.blogId);
    return q.execute();
  }

  /** Replaces unread 'updated their post' notices so repeated edits do not pile up. */
  deleteUnreadUpdates(blogDbId: string, db: Kysely<Database>) {
    return db
      .deleteFrom('notifications')
      .where('blog_id', '=', blogDbId)
      .where('type', '=', 'blog-update')
      .where('is_read', '=', 0)
      .execute();
  }

  /**
   * Who has unread notices about the post, or about the comment and the replies below it: the
   * notices a deletion is about to take with it (ON DELETE CASCADE). At most `limit` of them.
   */
  async unreadRecipientsAbout(about: { blogId: string; commentId?: string }, limit: number, db: Kysely<Database>): Promise<string[]> {
    const { blogId, commentId } = about;
    if (commentId) return unreadAboutCommentsBelow(db, { commentId }, limit);
    const rows = await db
      .selectFrom('notifications')
      .select('recipient_id')
      .distinct()
      .where('blog_id', '=', blogId)
      .where('is_read', '=', 0)
      .limit(limit)
      .execute();
    return rows.map((r) => r.recipient_id);
  }

  /**
   * Up to `limit` other users with unread notices the user sent, and `withContent`, about the
   * user's posts or about their comments and the replies below them (what deleting the account
   * takes with it). Three reads, each through its own index (sender, blog, comment): one query
   * with OR was planned by PostgreSQL as a scan of every notification.
   */
  async unreadRecipientsFrom(userId: string, { withContent }: { withContent: boolean }, limit: number, db: Kysely<Database>) {
    const unreadFor = (where: (q: NoticeQuery) => NoticeQuery) => async () => {
      const q = db
        .selectFrom('notifications')
        .select('recipient_id')
        .distinct()
        .where('is_read', '=', 0)
        .where('recipient_id', '!=', userId);
      return (await where(q).limit(limit).execute()).map((r) => r.recipient_id);
    };
    const reads = [unreadFor((q) => q.where('sender_id', '=', userId))];
    if (withContent) {
      reads.push(
        unreadFor((q) => q.where('blog_id', 'in', db.selectFrom('blogs').select('blogs.id').where('blogs.creator_id', '=', userId))),
        () => unreadAboutCommentsBelow(db, { userId }, limit),
      );
    }
    const recipients = new Set<string>();
    // One after another: inside the caller's transaction they share its one connection anyway.
    for (const read of reads) for (const id of await read()) recipients.add(id);
    return [...recipients].slice(0, limit);
  }
}
