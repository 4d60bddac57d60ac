import { type Kysely, sql } from 'kysely';
import { nowIso } from '../../db/ids';
import type { Database, DigestFrequency } from '../../db/schema';
import { notMutedBySql, notSuspendedSql, publiclyVisibleSql } from '../../lib/policies';

export interface DigestPost {
  blog_id: string;
  title: string;
  description: string;
  like_count: number;
  author: string | null;
}

export interface Recipient {
  id: string;
  email: string;
  unsubscribe_token: string;
}

export type DigestKind = 'newsletter' | 'following';

/** Whether the recipient has no digest_sends row for the period yet (an indexed NOT EXISTS). */
const notSent = (kind: DigestKind, period: string, recipient: 's.id' | 'p.user_id') =>
  sql<boolean>`not exists (select 1 from digest_sends d where d.kind = ${kind} and d.period = ${period} and d.recipient_id = ${sql.ref(recipient)})`;

/** What the digest job reads and writes: recipients not yet sent a period's digest, and the posts. */
export class DigestRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Confirmed subscribers (confirmed before `before`) with no digest of this period yet, by id after `after`. */
  subscribersToSend(period: string, before: string, after: string, limit: number): Promise<Recipient[]> {
    return this.db
      .selectFrom('newsletter_subscribers as s')
      .select(['s.id', 's.email', 's.unsubscribe_token'])
      .where('s.status', '=', 'confirmed')
      .where('s.confirmed_at', '<', before)
      .where('s.id', '>', after)
      .where(notSent('newsletter', period, 's.id'))
      .orderBy('s.id')
      .limit(limit)
      .execute();
  }

  /** Verified readers who chose this frequency before `before`, with no digest of this period yet. */
  readersToSend(frequency: DigestFrequency, period: string, before: string, after: string, limit: number): Promise<Recipient[]> {
    return this.db
      .selectFrom('digest_preferences as p')
      .innerJoin('users as u', 'u.id', 'p.user_id')
      .select(['p.user_id as id', 'u.email', 'p.unsubscribe_token'])
      .where('p.frequency', '=', frequency)
      .where('p.updated_at', '<', before)
      .where('u.email_verified', '=', 1)
      .where(notSuspendedSql('u'))
      .where('p.user_id', '>', after)
      .where(notSent('following', period, 'p.user_id'))
      .orderBy('p.user_id')
      .limit(limit)
      .execute();
  }

  /** The most-liked posts published in [from, to). */
  topPosts(from: string, to: string, limit: number): Promise<DigestPost[]> {
    return this.db
      .selectFrom('blogs as b')
      .leftJoin('users as u', 'u.id', 'b.creator_id')
      .select(['b.blog_id', 'b.title', 'b.description', 'b.like_count', 'u.name as author'])
      .where(publiclyVisibleSql('b'))
      .where('b.created_at', '>=', from)
      .where('b.created_at', '<', to)
      .orderBy('b.like_count', 'desc')
      .orderBy('b.created_at', 'desc')
      .limit(limit)
      .execute();
  }

  /** Posts published in [from, to) by the authors a reader follows, newest first. */
  followedPosts(readerId: string, from: string, to: string, limit: number): Promise<DigestPost[]> {
    return this.db
      .selectFrom('follows as f')
      .innerJoin('blogs as b', 'b.creator_id', 'f.following_id')
      .innerJoin('users as u', 'u.id', 'b.creator_id')
      .select(['b.blog_id', 'b.title', 'b.description', 'b.like_count', 'u.name as author'])
      .where('f.follower_id', '=', readerId)
      .where(publiclyVisibleSql('b'))
      .where(notMutedBySql('b.creator_id', readerId))
      .where('b.created_at', '>=', from)
      .where('b.created_at', '<', to)
      .orderBy('b.created_at', 'desc')
      .limit(limit)
      .execute();
  }

  /**
   * Records the period's digest for these recipients, skipping any that already have it (another
   * run got there first); returns the ids recorded now: only those may be mailed.
   */
  async recordSends(
    kind: DigestKind,
    period: string,
    sends: { id: string; mailed: boolean }[],
    db: Kysely<Database>,
  ): Promise<Set<string>> {
    if (!sends.length) return new Set();
    const now = nowIso();
    const rows = await db
      .insertInto('digest_sends')
      .values(sends.map((s) => ({ kind, period, recipient_id: s.id, mailed: s.mailed ? 1 : 0, created_at: now }) as const))
      .onConflict((oc) => oc.columns(['kind', 'period', 'recipient_id']).doNothing())
      .returning('recipient_id')
      .execute();
    return new Set(rows.map((r) => r.recipient_id));
  }

  /** Records older than `cutoff` (no run looks that far back), up to `limit`; returns how many. */
  async deleteSendsBefore(cutoff: string, limit: number): Promise<number> {
    const result = await this.db
      .deleteFrom('digest_sends')
      .where(({ eb, refTuple, selectFrom }) =>
        eb(
          refTuple('kind', 'period', 'recipient_id'),
          'in',
          selectFrom('digest_sends')
            .select(['kind', 'period', 'recipient_id'])
            .where('created_at', '<', cutoff)
            .limit(limit)
            .$asTuple('kind', 'period', 'recipient_id'),
        ),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Subscriptions never confirmed, requested before `cutoff`, up to `limit`; returns how many. */
  async deleteUnconfirmedBefore(cutoff: string, limit: number): Promise<number> {
    const result = await this.db
      .deleteFrom('newsletter_subscribers')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('newsletter_subscribers')
          .select('id')
          .where('status', '=', 'pending')
          .where('requested_at', '<', cutoff)
          .limit(limit),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
