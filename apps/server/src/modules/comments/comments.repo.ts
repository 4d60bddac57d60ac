import { MAX_REPLIES_PER_PAGE } from '@inkwell/core';
import { type ExpressionBuilder, type Insertable, type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import { isPostgres } from '../../db/dialect';
import { idList, oneOf, prepared } from '../../db/prepared';
import type { CommentsTable, Database } from '../../db/schema';
import { commentReadableBySql, NO_VIEWER } from '../../lib/policies';
import type { PlannedNotices } from '../../lib/tx';
import { POST_COUNTS, type PostCounts, postCounts } from '../blogs/blogs.repo';
import { insertNotices } from '../notifications/notifications.repo';

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

/** The comment's own columns a row carries: withAuthor's, and the replies' query below (raw SQL). */
const COMMENT_COLUMNS = [
  'id',
  'blog_id',
  'user_id',
  'parent_id',
  'comment',
  'like_count',
  'reply_count',
  'created_at',
  'updated_at',
  'hidden',
] as const;

/** A comment's author (joined as `author`) and whether the viewer liked it, for rows of `table`. */
function authorAndLike(
  eb: ExpressionBuilder<Database & { author: Database['users'] }, 'author'>,
  table: 'comments' | 'replies',
  viewer: string,
) {
  return [
    'author.name as author_name',
    'author.username as author_username',
    'author.profile_pic as author_profile_pic',
    eb
      .exists(
        eb
          .selectFrom('comment_likes')
          .select('comment_likes.user_id')
          .whereRef('comment_likes.comment_id', '=', sql.ref(`${table}.id`))
          .where('comment_likes.user_id', '=', viewer),
      )
      .as('is_liked'),
  ] as const;
}

/** Comment rows with their author and the viewer's like flag, in one query. */
function withAuthor(db: Kysely<Database>, viewerId: string | null) {
  return db
    .selectFrom('comments')
    .leftJoin('users as author', 'author.id', 'comments.user_id')
    .select((eb) => [
      ...COMMENT_COLUMNS.map((column) => `comments.${column}` as const),
      ...authorAndLike(eb as never, 'comments', viewerId ?? NO_VIEWER),
    ]);
}

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

/**
 * The readable replies below the root comments, at any depth, each with the root it is under
 * (`root_id`) and only what orders it (THREAD_ORDER): the recursion every replies' query below
 * starts with. Their ids are one parameter, so each query is compiled once whatever the
 * number of comments (building it was a tenth of a comment's cost and the check read after it at
 * 100 writes/s). The rows a page keeps are read whole afterwards (repliesOf): carrying every
 * column through a thread of 20,000 replies and its sorts cost more than the page's 501 lookups.
 *
 * Each level is read through comments_parent_idx. PostgreSQL, which guesses ten times the first
 * level's rows for each level of a recursion, once scanned the whole table for a join of the ids
 * gathered: 2.1 ms for two replies on a site of 2,125 comments, growing with the site. There each
 * level reads its replies through a LATERAL subquery (OFFSET 0 keeps it one: flattened into a
 * join, it is planned as that scan again): 0.2 ms. SQLite has no LATERAL and already reads each
 * level through the index. With that plan for any page, they are named statements on PostgreSQL.
 * A hidden reply closes its own replies (they are never reached).
 */
function replyTree(db: Kysely<Database>, rootIds: unknown, viewer: string) {
  const readable = commentReadableBySql('comments', viewer);
  const level = (reply: string) =>
    sql.raw(`tree.root_id, ${reply}.id,
      CASE WHEN ${reply}.created_at > tree.thread_at THEN ${reply}.created_at ELSE tree.thread_at END, tree.depth + 1`);
  const nextLevel = isPostgres(db)
    ? sql`SELECT ${level('reply')} FROM tree CROSS JOIN LATERAL (
        SELECT comments.id, comments.created_at FROM comments WHERE comments.parent_id = tree.id AND ${readable} OFFSET 0
      ) AS reply`
    : sql`SELECT ${level('comments')} FROM comments INNER JOIN tree ON tree.id = comments.parent_id WHERE ${readable}`;
  return sql<TreeRow>`(WITH RECURSIVE tree(root_id, id, thread_at, depth) AS (
      SELECT comments.parent_id, comments.id, comments.created_at, 1 FROM comments
      WHERE ${oneOf(db, 'comments.parent_id', rootIds)} AND ${readable}
      UNION ALL
      ${nextLevel}
    ) SELECT * FROM tree)`;
}

/**
 * A row of the replies' recursion: the root it is under and its place in the thread's order
 * (THREAD_ORDER): `thread_at` is its own time, or its parent's `thread_at` when that is later (a
 * reply dated before its parent, by another instance's clock), and `depth` puts a reply after a
 * parent of the same `thread_at`. So a reply always comes after its parent, and a cut that keeps
 * a reply keeps its parent: ordered by time alone, such a reply fell on the page without its
 * parent, was dropped there, and the thread's cursor, past it, never read it again.
 */
type TreeRow = { root_id: string; id: string; thread_at: string; depth: number };
/** Oldest first, each reply after its parent (TreeRow); the id breaks ties. */
const THREAD_ORDER = ['thread_at', 'depth', 'id'] as const;
/** Where a thread's replies are read on from: the last reply read's THREAD_ORDER values. */
export interface ReplyPosition {
  threadAt: string;
  depth: number;
  id: string;
}
/**
 * A reply's row: the comment's own columns, its author and the viewer's like flag, the root it is
 * under and its place in the thread (TreeRow); on a page of threads also its place among that root's replies (1 = oldest) and how
 * many that root has.
 */
type ReplyRow = CommentRow & Omit<TreeRow, 'id'> & { thread_rank?: number | string; thread_size?: number | string };

/**
 * The page's rows read whole: the comment with its author and the viewer's like flag, in the
 * page's order. The outer SELECTs are Kysely's, so db/write-watch.ts knows the statement for a
 * read from its query node, not from raw text: a raw WITH was once taken for a write, and each
 * read of a thread with replies emptied the public cache.
 */
function repliesOf(db: Kysely<Database>, page: SelectQueryBuilder<any, any, TreeRow>, viewer: string, ranked: boolean) {
  const query = db
    .selectFrom(page.as('page'))
    .innerJoin('comments as replies', 'replies.id', 'page.id')
    .leftJoin('users as author', 'author.id', 'replies.user_id')
    .select(COMMENT_COLUMNS.map((column) => `replies.${column}` as const))
    .select(['page.root_id', 'page.thread_at', 'page.depth'])
    .$if(ranked, (q) => q.select(['page.thread_rank', 'page.thread_size'] as never))
    .select((eb) => authorAndLike(eb as never, 'replies', viewer))
    .$if(ranked, (q) => q.orderBy('page.thread_rank' as never, 'asc'));
  return THREAD_ORDER.reduce((q, column) => q.orderBy(`page.${column}`, 'asc'), query) as unknown as SelectQueryBuilder<
    Database,
    never,
    ReplyRow
  >;
}

/**
 * The replies below a page's comments (every thread miss with replies runs it), at most one more
 * than a page holds, shared between the threads: every thread's oldest reply, then every thread's
 * second, and so on (thread_rank). A small thread is shown whole and a long one gets what is
 * left, where a cut oldest first across the page gave an old long thread the whole page and the
 * other threads none of their replies. Within a thread the rows stay in THREAD_ORDER (oldest
 * first), so a thread shows its start and its own cursor reads on from its last reply shown.
 */
const descendantsQuery = prepared(
  (db, rootIds: unknown, viewer: string) => {
    const ranked = db
      .selectFrom(replyTree(db, rootIds, viewer).as('tree'))
      .selectAll()
      .select([
        // One window for both (the count's frame is the whole thread): SQLite sorts every reply once, not twice.
        sql<number>`row_number() OVER (PARTITION BY tree.root_id ORDER BY tree.thread_at, tree.depth, tree.id)`.as('thread_rank'),
        sql<number>`count(*) OVER (PARTITION BY tree.root_id ORDER BY tree.thread_at, tree.depth, tree.id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)`.as(
          'thread_size',
        ),
      ]);
    // The cap is written into the statement: PostgreSQL prices a generic plan's `LIMIT $n` at a
    // tenth of the rows, above a plan for 501, and would then plan every execution anew.
    const page = THREAD_ORDER.reduce(
      (q, column) => q.orderBy(`ranked.${column}`, 'asc'),
      db.selectFrom(ranked.as('ranked')).selectAll().orderBy('ranked.thread_rank', 'asc'),
    ).limit(sql.lit(MAX_REPLIES_PER_PAGE + 1));
    return repliesOf(db, page, viewer, true);
  },
  { statementName: 'comment_replies' },
);

/**
 * One thread's replies after a position (THREAD_ORDER), at most one more than a page holds: a
 * thread a page of comments cut short reads on here. FIRST_REPLY starts at its first reply, so one
 * statement serves both.
 */
const threadRepliesQuery = prepared(
  (db, rootIds: unknown, viewer: string, afterTime: string, afterDepth: number, afterId: string) => {
    const page = THREAD_ORDER.reduce(
      (q, column) => q.orderBy(`tree.${column}`, 'asc'),
      db
        .selectFrom(replyTree(db, rootIds, viewer).as('tree'))
        .selectAll()
        .where((eb) =>
          eb.and([
            eb('tree.thread_at', '>=', afterTime),
            eb.or([
              eb('tree.thread_at', '>', afterTime),
              eb('tree.depth', '>', afterDepth),
              eb.and([eb('tree.depth', '=', afterDepth), eb('tree.id', '>', afterId)]),
            ]),
          ]),
        ),
    ).limit(sql.lit(MAX_REPLIES_PER_PAGE + 1));
    return repliesOf(db, page, viewer, false);
  },
  { statementName: 'comment_thread_replies' },
);

/** Before every reply: where a thread's replies start. */
export const FIRST_REPLY: ReplyPosition = { threadAt: new Date(0).toISOString(), depth: 0, id: '00000000-0000-0000-0000-000000000000' };

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

export type CommentRow = Awaited<ReturnType<ReturnType<typeof withAuthor>['executeTakeFirstOrThrow']>>;

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

  /**
   * Replies below the given comments (any depth) the viewer may read, at most one more than a page
   * holds (MAX_REPLIES_PER_PAGE), shared between the threads (descendantsQuery): each thread's
   * first, its rows in THREAD_ORDER, each with `thread_size`, the number of replies it has. A hidden
   * reply hides its own replies.
   */
  async listDescendants(rootIds: string[], viewerId: string | null) {
    if (!rootIds.length) return [];
    return (await descendantsQuery(this.db, idList(this.db, rootIds), viewerId ?? NO_VIEWER)).rows;
  }

  /** One comment's replies (any depth) the viewer may read after `from`, in THREAD_ORDER, at most one more than a page holds. */
  async listThreadReplies(rootId: string, viewerId: string | null, from: ReplyPosition = FIRST_REPLY) {
    const { rows } = await threadRepliesQuery(
      this.db,
      idList(this.db, [rootId]),
      viewerId ?? NO_VIEWER,
      from.threadAt,
      from.depth,
      from.id,
    );
    return rows;
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
