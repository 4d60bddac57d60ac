import type { Kysely } from 'kysely';
import { newId, nowIso } from '../db/ids';
import type { Database } from '../db/schema';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra headers, e.g. List-Unsubscribe on newsletter mail. */
  headers?: Record<string, string>;
}

export class MailRepository {
  constructor(private readonly db: Kysely<Database>) {}

  insert(mail: OutgoingMail, db: Kysely<Database> = this.db) {
    return this.insertMany([mail], db);
  }

  /** Several mails in one statement (a digest batch). */
  insertMany(mails: OutgoingMail[], db: Kysely<Database> = this.db) {
    const now = nowIso();
    return db
      .insertInto('mail_outbox')
      .values(
        mails.map((mail) => ({
          id: newId(),
          to_address: mail.to,
          subject: mail.subject,
          text_body: mail.text,
          html_body: mail.html ?? null,
          next_attempt_at: now,
          locked_until: null,
          sent_at: null,
          last_error: null,
          created_at: now,
          headers: mail.headers ? JSON.stringify(mail.headers) : null,
        })),
      )
      .execute();
  }

  findDue(limit: number) {
    const now = nowIso();
    return this.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('sent_at', 'is', null)
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
      .orderBy('next_attempt_at')
      .limit(limit)
      .execute();
  }

  /** Mails not sent yet (due or waiting for a retry), for metrics. */
  async countPending(): Promise<number> {
    const row = await this.db
      .selectFrom('mail_outbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('sent_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Claims a row for one sender across instances; false when another instance got it first. */
  async claim(id: string, lockSeconds: number): Promise<boolean> {
    const now = nowIso();
    const result = await this.db
      .updateTable('mail_outbox')
      .set({ locked_until: new Date(Date.now() + lockSeconds * 1000).toISOString() })
      .where('id', '=', id)
      .where('sent_at', 'is', null)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Every message to an address, sent or not: a deleted account leaves neither its address nor its mail. */
  deleteForAddress(address: string, db: Kysely<Database> = this.db) {
    return db.deleteFrom('mail_outbox').where('to_address', '=', address).execute();
  }

  markSent(id: string) {
    return this.db.updateTable('mail_outbox').set({ sent_at: nowIso(), locked_until: null }).where('id', '=', id).execute();
  }

  markFailed(id: string, attempts: number, error: string, nextAttemptAt: string) {
    return this.db
      .updateTable('mail_outbox')
      .set({ attempts, last_error: error.slice(0, 500), next_attempt_at: nextAttemptAt, locked_until: null })
      .where('id', '=', id)
      .execute();
  }
}
