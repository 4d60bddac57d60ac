import { type Insertable, type Kysely, sql } from 'kysely';
import { isPostgres } from '../../db/dialect';
import { idList, oneOf, prepared } from '../../db/prepared';
import type { CommentsTable, Database } from '../../db/schema';
import { commentReadableBySql, NO_VIEWER } from '../../lib/policies';
import type { PlannedNotices } from '../../lib/tx';
import { POST_COUNTS, type PostCounts, postCounts } from '../blogs/blogs.repo';
import { insertNotices } from '../notifications/notifications.repo';
import { type ReplyPosition, readPageReplies, readThreadReplies } from './comment-replies.queries';
import { withAuthor } from './comment-rows';

export type { ReplyPosition } from './comment-replies.queries';
export type { CommentRow } from './comment-rows';

/** A new comment's values, in the order the prepared statements take them. */
type NewComment = [id: string, blogId: string, userId: string, parentId: string | null, comment: string, createdAt: string];

type CommentValues = Pick<Insertable<CommentsTable>, 'id' | 'blog_id' | 'user_id' | 'parent_id' | 'comment' | 'created_at'>;
const newComment = (row: CommentValues): NewComment => [
  row.id,
  row.blog_id,
  row.user_id,
  row.parent_id ?? null,
  row.comment,
  row.created_at,
];

const insertCommentQuery = (db: Kysely<Database>, ...[id, blogId, userId, parentId, comment, createdAt]: NewComment) =>
  db.insertInto('comments').values({
    id,
    blog_id: blogId,
    user_id: userId,
    parent_id: parentId,
    comment,
    like_count: 0,
    reply_count: 0,
    created_at: createdAt,
    updated_at: createdAt,
  });
const insertComment = prepared(insertCommentQuery);
const addToBlogCommentCountQuery = (db: Kysely<Database>, blogDbId: string, delta: number) =>
  db
    .updateTable('blogs')
    .set((eb) => ({ comment_count: eb('comment_count', '+', delta) }))
    .where('id', '=', blogDbId)
    .returning(POST_COUNTS);
const addToBlogCommentCount = prepared(addToBlogCommentCountQuery);
const addToReplyCountQuery = (db: Kysely<Database>, id: string | null, delta: number) =>
  db
    .updateTable('comments')
    .set((eb) => ({ reply_count: eb('reply_count', '+', delta) }))
    .where('id', '=', id);

/**
 * PostgreSQL: a new comment as one data-modifying WITH, atomic by itself: the row, its parent's
 * reply count (none for a top-level comment: no row has a null id), the post's comment count and
 * the notices. The same SQL text whatever the case, so it is compiled once.
 */
const createInOneStatement = prepared(
  (db, noticeIds: string[], recipientIds: string[], types: string[], ...comment: NewComment) => {
    const [id, blogId, userId, parentId, , createdAt] = comment;
    return db
      .with('inserted', () => insertCommentQuery(db, ...comment).returning('id'))
      .with('replied', () => addToReplyCountQuery(db, parentId, 1).returning('id') as never)
      .with('counted', () => addToBlogCommentCountQuery(db, blogId, 1) as never)
      .with(
        'noticed',
        () => insertNotices(db, { ids: noticeIds, recipientIds, types }, { senderId: userId, blogId, commentId: id, createdAt }) as never,
      )
      .selectNoFrom(POST_COUNTS.map((column) => sql<number>`(select ${sql.ref(column)} from counted)`.as(column)));
  },
  { statementName: 'comment_create_with_notices' },
);

/**
 * A page of a blog's top-level comments (every thread miss runs it): compiled once. Named on
 * PostgreSQL: whatever the post, the page is read in order from comments_top_level_idx and stops
 * at its limit, so planning it anew for each read (about as costly as running it) buys nothing.
 */
const topLevelQuery = prepared(
  (db, blogDbId: string, viewer: string, limit: number, offset: number) =>
    withAuthor(db, viewer)
      .where('comments.blog_id', '=', blogDbId)
      .where('comments.parent_id', 'is', null)
      .where(commentReadableBySql('comments', viewer))
      .orderBy('comments.created_at', 'desc')
      .orderBy('comments.id', 'desc')
      .limit(limit)
      .offset(offset),
  { statementName: 'comments_top_level' },
);

/** A comment of a thread as the visibility rules read it (lib/policies.ts canReadThread). */
export interface ThreadComment {
  id: string;
  blog_id: string;
  parent_id: string | null;
  user_id: string;
  hidden: number;
}
const THREAD_COLUMNS = ['id', 'blog_id', 'parent_id', 'user_id', 'hidden'] as const;
const threadColumns = (table: string) => sql.raw(THREAD_COLUMNS.map((column) => `${table}.${column}`).join(', '));

/**
 * Each comment with every comment above it, nearest first: a reply is read as part of its thread
 * (a hidden comment closes and hides what is below it). Each level is one primary-key read; on
 * PostgreSQL through LATERAL, as the replies' query above, so the recursion is never planned as a scan.
 */
const threadsQuery = (db: Kysely<Database>, ids: string[]) => {
  const upLevel = isPostgres(db)
    ? sql`SELECT up.start_id, up.depth + 1, ${threadColumns('parent')} FROM up CROSS JOIN LATERAL (
        SELECT ${threadColumns('comments')} FROM comments WHERE comments.id = up.parent_id OFFSET 0
      ) AS parent`
    : sql`SELECT up.start_id, up.depth + 1, ${threadColumns('comments')} FROM comments INNER JOIN up ON comments.id = up.parent_id`;
  // Kysely's outer SELECT, so db/write-watch.ts reads it as a read (see descendantsQuery).
  const up = sql<
    ThreadComment & { start_id: string; depth: number }
  >`(WITH RECURSIVE up(start_id, depth, ${sql.raw(THREAD_COLUMNS.join(', '))}) AS (
    SELECT comments.id, 0, ${threadColumns('comments')} FROM comments WHERE ${oneOf(db, 'comments.id', idList(db, ids))}
    UNION ALL
    ${upLevel}
  ) SELECT * FROM up)`;
  return db.selectFrom(up.as('up')).selectAll().orderBy('up.start_id').orderBy('up.depth');
};

export class CommentsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  findById(id: string, db: Kysely<Database> = this.db) {
    return db.selectFrom('comments').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Each of these comments with the comments above it, nearest first ([] for an unknown id is left out). */
  async threads(ids: string[], db: Kysely<Database> = this.db): Promise<Map<string, ThreadComment[]>> {
    const threads = new Map<string, ThreadComment[]>();
    if (!ids.length) return threads;
    for (const { start_id, depth: _depth, ...row } of await threadsQuery(db, ids).execute()) {
      const comment = { ...row, hidden: Number(row.hidden) };
      const thread = threads.get(start_id);
      if (thread) thread.push(comment);
      else threads.set(start_id, [comment]);
    }
    return threads;
  }

  /** The comment with the comments above it, nearest first; undefined if there is no such comment. */
  async thread(id: string, db: Kysely<Database> = this.db): Promise<ThreadComment[] | undefined> {
    return (await this.threads([id], db)).get(id);
  }

  findWithAuthor(id: string, viewerId: string | null, db: Kysely<Database> = this.db) {
    return withAuthor(db, viewerId).where('comments.id', '=', id).executeTakeFirst();
  }

  /** A page of a blog's top-level comments, newest first; one extra row for hasMore. */
  async listTopLevel(blogDbId: string, viewerId: string | null, limit: number, offset: number) {
    return (await topLevelQuery(this.db, blogDbId, viewerId ?? NO_VIEWER, limit + 1, offset)).rows;
  }

  /** The replies of a page's threads, shared between them (comment-replies.queries.ts). */
  listDescendants(rootIds: string[], viewerId: string | null) {
    return readPageReplies(this.db, rootIds, viewerId);
  }

  /** One thread's replies after `from` (comment-replies.queries.ts). */
  listThreadReplies(rootId: string, viewerId: string | null, from?: ReplyPosition) {
    return readThreadReplies(this.db, rootId, viewerId, from);
  }

  /** A new comment: no likes or replies yet, updated when created. */
  insert(row: CommentValues, db: Kysely<Database>) {
    return insertComment(db, ...newComment(row));
  }

  updateText(id: string, comment: string, updatedAt: string, db: Kysely<Database> = this.db) {
    return db.updateTable('comments').set({ comment, updated_at: updatedAt }).where('id', '=', id).execute();
  }

  /** Replies and their likes and notifications go with it (ON DELETE CASCADE). */
  delete(id: string, db: Kysely<Database>) {
    return db.deleteFrom('comments').where('id', '=', id).execute();
  }

  adjustReplyCount(id: string, delta: number, db: Kysely<Database>) {
    return addToReplyCountQuery(db, id, delta).execute();
  }

  /** PostgreSQL: the comment, both counts and its notices in one statement (createInOneStatement above). */
  async createInOneStatement(
    row: Insertable<CommentsTable>,
    notices: Pick<PlannedNotices, 'ids' | 'recipientIds' | 'types'>,
    db: Kysely<Database>,
  ): Promise<PostCounts | undefined> {
    const { rows } = await createInOneStatement(db, notices.ids, notices.recipientIds, notices.types, ...newComment(row));
    return rows[0]?.comment_count == null ? undefined : postCounts(rows[0]);
  }

  /** Moves the post's comment count; its counts after (undefined: no such post). */
  async adjustBlogCommentCount(blogDbId: string, delta: number, db: Kysely<Database>): Promise<PostCounts | undefined> {
    const { rows } = await addToBlogCommentCount(db, blogDbId, delta);
    return rows[0] && postCounts(rows[0]);
  }

  async removeLike(commentId: string, userId: string, db: Kysely<Database>): Promise<boolean> {
    const r = await db.deleteFrom('comment_likes').where('comment_id', '=', commentId).where('user_id', '=', userId).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async addLike(commentId: string, userId: string, createdAt: string, db: Kysely<Database>): Promise<boolean> {
    const r = await db
      .insertInto('comment_likes')
      .values({ comment_id: commentId, user_id: userId, created_at: createdAt })
      .onConflict((oc) => oc.columns(['comment_id', 'user_id']).doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async adjustLikeCount(commentId: string, delta: number, db: Kysely<Database>): Promise<number> {
    if (delta !== 0) {
      await db
        .updateTable('comments')
        .set((eb) => ({ like_count: eb('like_count', '+', delta) }))
        .where('id', '=', commentId)
        .execute();
    }
    return (await db.selectFrom('comments').select('like_count').where('id', '=', commentId).executeTakeFirstOrThrow()).like_count;
  }
}
