import { MAX_REPLIES_PER_PAGE } from '@inkwell/core';
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import { isPostgres } from '../../db/dialect';
import { idList, oneOf, prepared } from '../../db/prepared';
import type { Database } from '../../db/schema';
import { commentReadableBySql, NO_VIEWER } from '../../lib/policies';
import { authorAndLike, COMMENT_COLUMNS, type CommentRow } from './comment-rows';

// The replies of a post's threads: CommentsRepository reads them through the two functions at the end.

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
 * under and its place in the thread (TreeRow); on a page of threads also its rank among that
 * root's replies (1 = first) and how many that root has.
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

/**
 * Replies below the given comments (any depth) the viewer may read, at most one more than a page
 * holds (MAX_REPLIES_PER_PAGE), shared between the threads (descendantsQuery): each thread's
 * first, its rows in THREAD_ORDER, each with `thread_size`, the number of replies it has. A hidden
 * reply hides its own replies.
 */
export async function readPageReplies(db: Kysely<Database>, rootIds: string[], viewerId: string | null) {
  if (!rootIds.length) return [];
  return (await descendantsQuery(db, idList(db, rootIds), viewerId ?? NO_VIEWER)).rows;
}

/** One comment's replies (any depth) the viewer may read after `from`, in THREAD_ORDER, at most one more than a page holds. */
export async function readThreadReplies(db: Kysely<Database>, rootId: string, viewerId: string | null, from: ReplyPosition = FIRST_REPLY) {
  const { rows } = await threadRepliesQuery(db, idList(db, [rootId]), viewerId ?? NO_VIEWER, from.threadAt, from.depth, from.id);
  return rows;
}
