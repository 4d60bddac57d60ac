/**
 * Social rows for the users and transfer tests, written straight to the database with the
 * counters the social endpoints would keep, so these tests do not depend on those endpoints.
 * Only tests import this file.
 */

import type { TestApp } from '../../../test/helpers';
import { newId, nowIso } from '../../db/ids';

/** Distinct, increasing timestamps so "newest first" orders are deterministic. */
let tick = Date.parse('2030-01-01T00:00:00Z');
const at = () => {
  tick += 1000;
  return new Date(tick).toISOString();
};

export async function react(t: TestApp, table: 'likes' | 'saves', userId: string, blogDbId: string) {
  const { db } = t.database;
  await db.insertInto(table).values({ user_id: userId, blog_id: blogDbId, created_at: at() }).execute();
  const column = table === 'likes' ? 'like_count' : 'save_count';
  await db
    .updateTable('blogs')
    .set((eb) => ({ [column]: eb(column, '+', 1) }))
    .where('id', '=', blogDbId)
    .execute();
}

export async function follow(t: TestApp, followerId: string, followingId: string) {
  const { db } = t.database;
  await db.insertInto('follows').values({ follower_id: followerId, following_id: followingId, created_at: at() }).execute();
  await db
    .updateTable('users')
    .set((eb) => ({ following_count: eb('following_count', '+', 1) }))
    .where('id', '=', followerId)
    .execute();
  await db
    .updateTable('users')
    .set((eb) => ({ follower_count: eb('follower_count', '+', 1) }))
    .where('id', '=', followingId)
    .execute();
}

export async function comment(t: TestApp, userId: string, blogDbId: string, parentId: string | null = null): Promise<string> {
  const { db } = t.database;
  const id = newId();
  const now = nowIso();
  await db
    .insertInto('comments')
    .values({
      id,
      blog_id: blogDbId,
      user_id: userId,
      parent_id: parentId,
      comment: 'Nice',
      like_count: 0,
      reply_count: 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await db
    .updateTable('blogs')
    .set((eb) => ({ comment_count: eb('comment_count', '+', 1) }))
    .where('id', '=', blogDbId)
    .execute();
  if (parentId) {
    await db
      .updateTable('comments')
      .set((eb) => ({ reply_count: eb('reply_count', '+', 1) }))
      .where('id', '=', parentId)
      .execute();
  }
  return id;
}

export async function likeComment(t: TestApp, userId: string, commentId: string) {
  const { db } = t.database;
  await db.insertInto('comment_likes').values({ comment_id: commentId, user_id: userId, created_at: at() }).execute();
  await db
    .updateTable('comments')
    .set((eb) => ({ like_count: eb('like_count', '+', 1) }))
    .where('id', '=', commentId)
    .execute();
}

export async function notify(t: TestApp, recipientId: string, senderId: string, type = 'follow') {
  await t.database.db
    .insertInto('notifications')
    .values({
      id: newId(),
      recipient_id: recipientId,
      sender_id: senderId,
      type,
      blog_id: null,
      comment_id: null,
      message: null,
      is_read: 0,
      created_at: nowIso(),
    })
    .execute();
}

export async function userRow(t: TestApp, id: string) {
  return t.database.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function blogCounts(t: TestApp, id: string) {
  return t.database.db
    .selectFrom('blogs')
    .select(['like_count', 'save_count', 'comment_count'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

export async function commentCounts(t: TestApp, id: string) {
  return t.database.db.selectFrom('comments').select(['like_count', 'reply_count']).where('id', '=', id).executeTakeFirstOrThrow();
}

export async function count(
  t: TestApp,
  table: 'blogs' | 'comments' | 'likes' | 'saves' | 'follows' | 'comment_likes' | 'notifications' | 'uploads' | 'transfer_requests',
  column: string,
  value: string,
) {
  const row = await t.database.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .where(column as never, '=', value as never)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
