import type { Kysely } from 'kysely';
import { newId, nowIso } from '../../db/ids';
import type { Database } from '../../db/schema';

/** E-mail verification tokens (stored hashed). */
export class VerificationRepository {
  constructor(private readonly db: Kysely<Database>) {}

  insert(userId: string, tokenHash: string, expiresAt: string, db: Kysely<Database> = this.db) {
    return db
      .insertInto('email_verifications')
      .values({ id: newId(), user_id: userId, token_hash: tokenHash, expires_at: expiresAt, used_at: null, created_at: nowIso() })
      .execute();
  }

  findByHash(tokenHash: string, db: Kysely<Database> = this.db) {
    return db.selectFrom('email_verifications').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  }

  /** Marks the token used; false if it was used concurrently (single use). */
  async markUsed(id: string, db: Kysely<Database> = this.db): Promise<boolean> {
    const r = await db
      .updateTable('email_verifications')
      .set({ used_at: nowIso() })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** A fresh mail supersedes older links. */
  invalidateForUser(userId: string, db: Kysely<Database> = this.db) {
    return db
      .updateTable('email_verifications')
      .set({ used_at: nowIso() })
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .execute();
  }
}
