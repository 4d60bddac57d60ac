import type { Kysely } from 'kysely';
import { newId, nowIso } from '../../db/ids';
import type { Database } from '../../db/schema';

/** What a verification link activates: one sign-up's name and password, and when it was made. */
export interface PendingSignup {
  signupId: string;
  name: string | null;
  passwordHash: string | null;
  signedUpAt: string;
}

/** E-mail verification tokens (stored hashed), each carrying the sign-up it activates. */
export class VerificationRepository {
  constructor(private readonly db: Kysely<Database>) {}

  insert(userId: string, tokenHash: string, expiresAt: string, signup: PendingSignup, db: Kysely<Database> = this.db) {
    return db
      .insertInto('email_verifications')
      .values({
        id: newId(),
        user_id: userId,
        token_hash: tokenHash,
        expires_at: expiresAt,
        used_at: null,
        created_at: nowIso(),
        signup_id: signup.signupId,
        name: signup.name,
        password_hash: signup.passwordHash,
        signed_up_at: signup.signedUpAt,
      })
      .execute();
  }

  findByHash(tokenHash: string, db: Kysely<Database> = this.db) {
    return db.selectFrom('email_verifications').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  }

  /** The newest unused, unexpired link of each of the user's sign-ups, newest sign-up first. */
  async pendingSignups(userId: string, limit: number, db: Kysely<Database> = this.db) {
    const rows = await db
      .selectFrom('email_verifications')
      .select(['signup_id', 'name', 'password_hash', 'signed_up_at'])
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .where('expires_at', '>', nowIso())
      .where('signup_id', 'is not', null)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit * 10)
      .execute();
    const seen = new Set<string>();
    const signups: PendingSignup[] = [];
    for (const r of rows) {
      if (seen.has(r.signup_id!)) continue;
      seen.add(r.signup_id!);
      signups.push({ signupId: r.signup_id!, name: r.name, passwordHash: r.password_hash, signedUpAt: r.signed_up_at ?? nowIso() });
      if (signups.length === limit) break;
    }
    return signups;
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

  /** Verifies a still unverified account with its link's name and password; false if it was verified meanwhile. */
  async activateAccount(userId: string, credentials: { name?: string; password_hash?: string }, db: Kysely<Database> = this.db) {
    const r = await db
      .updateTable('users')
      .set({ ...credentials, email_verified: 1, updated_at: nowIso() })
      .where('id', '=', userId)
      .where('email_verified', '=', 0)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Once the address is verified, every other pending link (of any sign-up) is discarded. */
  discardForUser(userId: string, db: Kysely<Database> = this.db) {
    return db
      .updateTable('email_verifications')
      .set({ used_at: nowIso() })
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .execute();
  }
}

/** Password reset tokens (stored hashed, single use). */
export class PasswordResetRepository {
  constructor(private readonly db: Kysely<Database>) {}

  insert(userId: string, tokenHash: string, expiresAt: string, db: Kysely<Database> = this.db) {
    return db
      .insertInto('password_resets')
      .values({ id: newId(), user_id: userId, token_hash: tokenHash, expires_at: expiresAt, used_at: null, created_at: nowIso() })
      .execute();
  }

  findByHash(tokenHash: string, db: Kysely<Database> = this.db) {
    return db.selectFrom('password_resets').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  }

  /** Uses the token and every other open one of the user; false if this one was used concurrently. */
  async useAllForUser(id: string, userId: string, db: Kysely<Database> = this.db): Promise<boolean> {
    const r = await db
      .updateTable('password_resets')
      .set({ used_at: nowIso() })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) return false;
    await this.useAllOpen(userId, db);
    return true;
  }

  /** Every open token of the user stops working (a new password, from a reset or a change). */
  async useAllOpen(userId: string, db: Kysely<Database> = this.db): Promise<void> {
    await db.updateTable('password_resets').set({ used_at: nowIso() }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
  }
}
