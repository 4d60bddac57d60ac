import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema';
import { NO_VIEWER } from '../../lib/policies';

/** The comment's own columns a row carries: withAuthor's, and the replies' (comment-replies.queries.ts). */
export const COMMENT_COLUMNS = [
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
export function authorAndLike(
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
export function withAuthor(db: Kysely<Database>, viewerId: string | null) {
  return db
    .selectFrom('comments')
    .leftJoin('users as author', 'author.id', 'comments.user_id')
    .select((eb) => [
      ...COMMENT_COLUMNS.map((column) => `comments.${column}` as const),
      ...authorAndLike(eb as never, 'comments', viewerId ?? NO_VIEWER),
    ]);
}

export type CommentRow = Awaited<ReturnType<ReturnType<typeof withAuthor>['executeTakeFirstOrThrow']>>;
