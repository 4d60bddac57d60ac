import { sql } from 'kysely';
import { ENGINE, type TestApp, type TestUser } from './helpers';

/**
 * Gives `user` `count` followers, new accounts copied from the user's row, in two statements
 * (through the API it would take hours). Answers the followers' email pattern for later queries.
 */
export async function addFollowers(t: TestApp, user: TestUser, count: number): Promise<string> {
  const { db } = t.database;
  const template = await db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
  const copied = Object.keys(template).filter((c) => !['id', 'email', 'username'].includes(c));
  const newId = ENGINE === 'postgres' ? sql`gen_random_uuid()` : sql`lower(hex(randomblob(16)))`;
  const cols = sql.join(copied.map((c) => sql.ref(c)));
  const emails = `%-${user.id}@example.com`;
  await sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count})
    INSERT INTO users (id, email, username, ${cols})
    SELECT ${newId}, 'fan' || i || ${`-${user.id}@example.com`}, 'fan' || i || ${user.id.slice(-8)}, ${cols}
    FROM n CROSS JOIN (SELECT ${cols} FROM users WHERE id = ${user.id}) AS template`.execute(db);
  await sql`INSERT INTO follows (follower_id, following_id, created_at)
    SELECT id, ${user.id}, created_at FROM users WHERE email LIKE ${emails}`.execute(db);
  await db.updateTable('users').set({ follower_count: count }).where('id', '=', user.id).execute();
  await db.updateTable('users').set({ following_count: 1, follower_count: 0 }).where('email', 'like', emails).execute();
  return emails;
}
