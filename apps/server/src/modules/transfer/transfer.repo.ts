import type { Insertable, Kysely } from 'kysely';
import type { Database, TransferRequestsTable } from '../../db/schema';

export type TransferAction = 'accept' | 'reject';

/** Account transfer requests; only hashes of the mailed tokens are stored. */
export class TransferRepository {
  constructor(private readonly db: Kysely<Database>) {}

  insert(row: Insertable<TransferRequestsTable>, db: Kysely<Database> = this.db) {
    return db.insertInto('transfer_requests').values(row).execute();
  }

  /** A new request supersedes the sender's older pending ones (their links stop working). */
  expirePending(fromUserId: string, now: string, db: Kysely<Database> = this.db) {
    return db
      .updateTable('transfer_requests')
      .set({ status: 'expired', resolved_at: now })
      .where('from_user_id', '=', fromUserId)
      .where('status', '=', 'pending')
      .execute();
  }

  findByHash(action: TransferAction, tokenHash: string, db: Kysely<Database> = this.db) {
    return db
      .selectFrom('transfer_requests')
      .selectAll()
      .where(action === 'accept' ? 'accept_token_hash' : 'reject_token_hash', '=', tokenHash)
      .executeTakeFirst();
  }

  /**
   * Moves a pending, unexpired request to its final status; false when another confirmation
   * got there first. The row lock taken here serializes concurrent clicks on PostgreSQL.
   */
  async claim(id: string, status: 'accepted' | 'rejected', now: string, db: Kysely<Database>): Promise<boolean> {
    const r = await db
      .updateTable('transfer_requests')
      .set({ status, resolved_at: now })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }
}
