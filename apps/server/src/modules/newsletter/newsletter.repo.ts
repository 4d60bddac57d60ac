import type { Kysely } from 'kysely';
import { newId, nowIso } from '../../db/ids';
import type { Database, DigestFrequency } from '../../db/schema';

/** Newsletter subscribers and readers' digest choices: queries only. */
export class NewsletterRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Creates a pending subscription, or renews the link of one that is pending or unsubscribed, in
   * one statement (two requests at once cannot both insert). A confirmed one is left as it is and
   * nothing comes back: the caller then sends no mail.
   */
  async upsertPending(email: string, confirmTokenHash: string, unsubscribeToken: string, db: Kysely<Database> = this.db) {
    const now = nowIso();
    return db
      .insertInto('newsletter_subscribers')
      .values({
        id: newId(),
        email,
        status: 'pending',
        confirm_token_hash: confirmTokenHash,
        unsubscribe_token: unsubscribeToken,
        requested_at: now,
        confirmed_at: null,
        unsubscribed_at: null,
      })
      .onConflict((oc) =>
        oc
          .column('email')
          .doUpdateSet({ status: 'pending', confirm_token_hash: confirmTokenHash, requested_at: now, unsubscribed_at: null })
          .where('newsletter_subscribers.status', '!=', 'confirmed'),
      )
      .returning(['id', 'unsubscribe_token'])
      .executeTakeFirst();
  }

  findByConfirmHash(hash: string) {
    return this.db.selectFrom('newsletter_subscribers').selectAll().where('confirm_token_hash', '=', hash).executeTakeFirst();
  }

  confirm(id: string) {
    return this.db
      .updateTable('newsletter_subscribers')
      .set({ status: 'confirmed', confirmed_at: nowIso() })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .execute();
  }

  /** Unsubscribes by a link's token; false when no subscription has it. Repeating it changes nothing. */
  /** The newsletter subscription of an address ('Download my data'): its state and dates, or undefined. */
  subscriptionOf(email: string) {
    return this.db
      .selectFrom('newsletter_subscribers')
      .select(['status', 'requested_at', 'confirmed_at', 'unsubscribed_at'])
      .where('email', '=', email)
      .executeTakeFirst();
  }

  async unsubscribe(token: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('newsletter_subscribers')
      .select(['id', 'status'])
      .where('unsubscribe_token', '=', token)
      .executeTakeFirst();
    if (!row) return false;
    if (row.status !== 'unsubscribed') {
      await this.db
        .updateTable('newsletter_subscribers')
        .set({ status: 'unsubscribed', unsubscribed_at: nowIso(), confirm_token_hash: null })
        .where('id', '=', row.id)
        .execute();
    }
    return true;
  }

  /** Turns a reader's digest off by its link's token; false when no reader has it. */
  async digestOffByToken(token: string): Promise<boolean> {
    const result = await this.db
      .updateTable('digest_preferences')
      .set({ frequency: 'off', updated_at: nowIso() })
      .where('unsubscribe_token', '=', token)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async digestFrequency(userId: string): Promise<DigestFrequency> {
    const row = await this.db.selectFrom('digest_preferences').select('frequency').where('user_id', '=', userId).executeTakeFirst();
    return row?.frequency ?? 'off';
  }

  /** The link token is made once per reader and kept, so links in earlier digests keep working. */
  setDigestFrequency(userId: string, frequency: DigestFrequency, newToken: string) {
    const now = nowIso();
    return this.db
      .insertInto('digest_preferences')
      .values({ user_id: userId, frequency, unsubscribe_token: newToken, updated_at: now })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ frequency, updated_at: now }))
      .execute();
  }

  /**
   * A deleted account's digest rows and a subscription of its address (digest_preferences also
   * goes by its foreign key; digest_sends has none, as its recipient is a user or a subscriber).
   */
  async forgetAccount(userId: string, email: string, db: Kysely<Database>): Promise<void> {
    await db.deleteFrom('digest_preferences').where('user_id', '=', userId).execute();
    await db.deleteFrom('digest_sends').where('kind', '=', 'following').where('recipient_id', '=', userId).execute();
    const subscriber = await db
      .selectFrom('newsletter_subscribers')
      .select('id')
      .where('email', '=', email.toLowerCase())
      .executeTakeFirst();
    if (!subscriber) return;
    await db.deleteFrom('digest_sends').where('kind', '=', 'newsletter').where('recipient_id', '=', subscriber.id).execute();
    await db.deleteFrom('newsletter_subscribers').where('id', '=', subscriber.id).execute();
  }
}
