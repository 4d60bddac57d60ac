import type { Insertable, Kysely, Updateable } from 'kysely';
import { isPostgres } from '../../db/dialect';
import { inLists } from '../../db/in-lists';
import { prepared } from '../../db/prepared';
import type { Database, UsersTable } from '../../db/schema';

export type UserRow = UsersTable;

const usernameById = prepared((db, id: string) => db.selectFrom('users').select('username').where('id', '=', id), {
  statementName: 'username_by_id',
});
const cardWithActor = prepared(
  (db, id: string, actorId: string) =>
    db
      .selectFrom('users')
      .leftJoin('users as actor', (join) => join.on('actor.id', '=', actorId))
      .select(['users.name', 'users.username', 'users.profile_pic', 'users.relations'])
      .select([
        'actor.name as actor_name',
        'actor.username as actor_username',
        'actor.profile_pic as actor_profile_pic',
        'actor.relations as actor_relations',
      ])
      .where('users.id', '=', id),
  { statementName: 'user_card_with_actor' },
);

/** A profile's follower count alone (lib/live-counts.ts): the unique username index, one row. */
const followerCountByUsername = prepared(
  (db, username: string) => db.selectFrom('users').select('follower_count').where('username', '=', username),
  { statementName: 'follower_count_by_username' },
);

/** A new account's row: the fields a sign-up method chooses, everything else at its start value. */
export function newUserRow(
  fields: Pick<UsersTable, 'id' | 'email' | 'name' | 'username' | 'password_hash' | 'google_auth' | 'google_sub' | 'email_verified'> &
    Partial<Pick<UsersTable, 'profile_pic'>>,
  now: string,
): UsersTable {
  return {
    bio: null,
    profile_pic: null,
    show_liked_blogs: 0,
    show_saved_blogs: 0,
    token_version: 0,
    follower_count: 0,
    following_count: 0,
    published_count: 0,
    role: 'user',
    suspended_at: null,
    relations: 0,
    created_at: now,
    updated_at: now,
    ...fields,
  };
}

/** Kysely queries on users; no rules here. */
/** The token check's row; created_at and published_count ride along for the new-account rate-limit tier. */
const authState = prepared(
  (db, id: string) => db.selectFrom('users').select(['id', 'token_version', 'created_at', 'published_count']).where('id', '=', id),
  { statementName: 'auth_state' },
);

export class UsersRepository {
  constructor(private readonly db: Kysely<Database>) {}

  findById(id: string, db: Kysely<Database> = this.db) {
    return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The username of a user (the tag of their profile's cached pages), undefined for an unknown id. */
  async usernameOf(id: string, db: Kysely<Database> = this.db): Promise<string | undefined> {
    return (await usernameById(db, id)).rows[0]?.username;
  }

  /** The follower count a profile shows, undefined for an unknown username. */
  async followerCountOf(username: string, db: Kysely<Database> = this.db): Promise<number | undefined> {
    return (await followerCountByUsername(db, username)).rows[0]?.follower_count;
  }

  /**
   * What a user shows beside their writes (a follow's message, the block check's flag), with the
   * card of the user acting on them (a follow's follower) in one read (modules/users/user-cards
   * keeps both): on PostgreSQL each statement is a round trip, the most of a write's cost
   * (docs/performance.md).
   */
  async cardOfWithActor(id: string, actorId: string, db: Kysely<Database> = this.db) {
    return (await cardWithActor(db, id, actorId)).rows[0];
  }

  findByEmail(email: string, db: Kysely<Database> = this.db) {
    return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  }

  findByUsername(username: string, db: Kysely<Database> = this.db) {
    return db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
  }

  async usernameTaken(username: string, db: Kysely<Database> = this.db): Promise<boolean> {
    const row = await db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst();
    return !!row;
  }

  /**
   * What a signed-in request checks: the token version, and the account facts of its rate-limit
   * tier (through the memo of lib/auth-state-memo.ts; a change to the version must announce a
   * revocation, SessionEvents.revoked; the facts may lag, see lib/rate-limit-hook.ts).
   */
  async findAuthState(id: string) {
    return (await authState(this.db, id)).rows[0];
  }

  /**
   * PostgreSQL: locks these users' rows (in id order, so two such changes cannot deadlock) for a
   * change that deletes or moves an account. A like, comment or follow referring to one of them
   * takes a key-share lock on its row (the foreign key check), so it either committed before this
   * lock, and what the change reads next sees it, or waits for the change and then finds the
   * account gone. SQLite's transaction already holds the only connection.
   */
  async lockForChange(ids: string[], trx: Kysely<Database>): Promise<void> {
    if (!isPostgres(trx)) return;
    // Sorted before it is cut, so the locks are still taken in one id order across the lists.
    for (const part of inLists([...ids].sort())) {
      await trx.selectFrom('users').select('id').where('id', 'in', part).orderBy('id').forUpdate().execute();
    }
  }

  /** The current token version of each of these users (a deleted one is absent). */
  async tokenVersions(ids: string[]): Promise<Map<string, number>> {
    if (!ids.length) return new Map();
    const rows = await this.db.selectFrom('users').select(['id', 'token_version']).where('id', 'in', ids).execute();
    return new Map(rows.map((r) => [r.id, Number(r.token_version)]));
  }

  insert(user: Insertable<UsersTable>, db: Kysely<Database> = this.db) {
    return db.insertInto('users').values(user).execute();
  }

  update(id: string, changes: Updateable<UsersTable>, db: Kysely<Database> = this.db) {
    return db.updateTable('users').set(changes).where('id', '=', id).execute();
  }

  /** Everything the user owns goes with the row (ON DELETE CASCADE). */
  delete(id: string, db: Kysely<Database> = this.db) {
    return db.deleteFrom('users').where('id', '=', id).execute();
  }

  bumpTokenVersion(id: string, db: Kysely<Database> = this.db) {
    return db
      .updateTable('users')
      .set((eb) => ({ token_version: eb('token_version', '+', 1) }))
      .where('id', '=', id)
      .execute();
  }

  /** The most recent ids a user follows and is followed by, for the session (capped). */
  async followIds(id: string, cap: number, db: Kysely<Database> = this.db) {
    const [following, followers] = await Promise.all([
      db
        .selectFrom('follows')
        .select('following_id as id')
        .where('follower_id', '=', id)
        .orderBy('created_at', 'desc')
        .limit(cap)
        .execute(),
      db
        .selectFrom('follows')
        .select('follower_id as id')
        .where('following_id', '=', id)
        .orderBy('created_at', 'desc')
        .limit(cap)
        .execute(),
    ]);
    return { following: following.map((r) => r.id), followers: followers.map((r) => r.id) };
  }

  /** An avatar upload of the user not used by any blog: the only uploads a profile picture may point at. */
  findOwnAvatarUpload(userId: string, url: string, db: Kysely<Database> = this.db) {
    return db
      .selectFrom('uploads')
      .select(['id', 'storage_key'])
      .where('owner_id', '=', userId)
      .where('url', '=', url)
      .where('kind', '=', 'avatar')
      .where('blog_id', 'is', null)
      .executeTakeFirst();
  }

  deleteUpload(id: string, db: Kysely<Database> = this.db) {
    return db.deleteFrom('uploads').where('id', '=', id).execute();
  }
}
