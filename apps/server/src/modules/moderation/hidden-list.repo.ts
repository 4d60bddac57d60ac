import { type Kysely, type SqlBool, sql } from 'kysely';
import { isPostgres } from '../../db/dialect';
import { type Database, HIDDEN_BY_MODERATOR } from '../../db/schema';
import type { AuditKey } from './moderation.repo';

/** The audit action whose row says an item of the list was hidden or suspended. */
export type HidingAction = 'hide_post' | 'hide_comment' | 'suspend_user';

/**
 * The 'Hidden and suspended' list (GET /moderation/hidden), read from the audit log: the newest
 * hide (or suspension) of each item that is still hidden (suspended), newest first. An item hidden,
 * restored and hidden again shows once, with its last hide. Keyset pages on the audit row's
 * (created_at, id): moderation_actions_action_idx gives the range, moderation_actions_target_idx
 * answers "a later one on the same item?" (0033).
 */
export class HiddenListRepository {
  constructor(private readonly db: Kysely<Database>) {}

  hiddenPosts(after: AuditKey | null, limit: number) {
    return this.page('hide_post', after, limit)
      .innerJoin('blogs as b', 'b.blog_id', 'a.target_id')
      .innerJoin('users as u', 'u.id', 'b.creator_id')
      .select(['b.blog_id', 'b.title', 'u.id as author_id', 'u.username', 'u.name'])
      .where(sql<SqlBool>`(b.hidden & ${sql.lit(HIDDEN_BY_MODERATOR)}) <> 0`)
      .execute();
  }

  hiddenComments(after: AuditKey | null, limit: number) {
    return this.page('hide_comment', after, limit)
      .innerJoin('comments as c', (join) => join.on(sql.ref('c.id'), '=', this.idOf('a.target_id')))
      .innerJoin('blogs as b', 'b.id', 'c.blog_id')
      .innerJoin('users as u', 'u.id', 'c.user_id')
      .select(['c.id as comment_id', 'c.comment', 'b.blog_id', 'b.title', 'u.id as author_id', 'u.username', 'u.name'])
      .where(sql<SqlBool>`(c.hidden & ${sql.lit(HIDDEN_BY_MODERATOR)}) <> 0`)
      .execute();
  }

  suspendedUsers(after: AuditKey | null, limit: number) {
    return this.page('suspend_user', after, limit)
      .innerJoin('users as u', (join) => join.on(sql.ref('u.id'), '=', this.idOf('a.target_id')))
      .select(['u.id as user_id', 'u.username', 'u.name'])
      .where('u.suspended_at', 'is not', null)
      .execute();
  }

  /**
   * The audit rows of `action` that no later row of the same action on the same item follows,
   * after the cursor, newest first, one more than a page (so the caller knows there is another).
   */
  private page(action: HidingAction, after: AuditKey | null, limit: number) {
    let q = this.db
      .selectFrom('moderation_actions as a')
      .leftJoin('users as m', 'm.id', 'a.moderator_id')
      .select([
        'a.id',
        'a.created_at',
        'a.reason',
        'a.moderator_id',
        'a.moderator_username',
        'm.username as m_username',
        'm.name as m_name',
      ])
      .where('a.action', '=', action)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('moderation_actions as later')
              .select(sql.lit(1).as('one'))
              .whereRef('later.target_id', '=', 'a.target_id')
              .where('later.action', '=', action)
              .where(sql<SqlBool>`(later.created_at, later.id) > (a.created_at, a.id)`),
          ),
        ),
      );
    if (after) q = q.where(sql<SqlBool>`(a.created_at, a.id) < (${after.createdAt}, ${after.id})`);
    return q
      .orderBy('a.created_at', 'desc')
      .orderBy('a.id', 'desc')
      .limit(limit + 1);
  }

  /**
   * moderation_actions.target_id is text (a post's blogId, or a comment's or user's id); ids are
   * uuid on PostgreSQL. Cast the audit side, so the item is found through its primary key. Only
   * rows of the one action reach the join, and their target ids are all ids of that kind.
   */
  private idOf(ref: 'a.target_id') {
    return isPostgres(this.db) ? sql<string>`cast(${sql.ref(ref)} as uuid)` : sql<string>`${sql.ref(ref)}`;
  }
}
