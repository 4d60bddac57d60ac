import { AUTH_MESSAGES } from '@inkwell/core';
import type { Kysely } from 'kysely';
import { nowIso } from '../../db/ids';
import type { Database } from '../../db/schema';
import { refuseCommonPassword } from '../../lib/common-passwords';
import { hashToken, newLinkToken } from '../../lib/crypto';
import { badRequest } from '../../lib/errors';
import { hashPassword } from '../../lib/password';
import type { RateGuard } from '../../lib/rate-guard';
import type { SessionEvents } from '../../lib/session-events';
import { transact } from '../../lib/tx';
import type { MailService } from '../../mail/mail.service';
import { googleAccountResetMail, passwordResetMail } from '../../mail/templates';
import type { UsersRepository } from '../users/users.repo';
import type { PasswordResetRepository, VerificationRepository } from './auth.repo';

const RESET_TTL_MS = 3600_000;

export interface PasswordResetDeps {
  db: Kysely<Database>;
  users: UsersRepository;
  resets: PasswordResetRepository;
  verifications: VerificationRepository;
  mail: MailService;
  rate: RateGuard;
  publicUrl: string;
  sessions?: SessionEvents;
}

/** Forgot password: a single-use link (256-bit token, SHA-256 stored, 1 hour) mailed through the outbox. */
export class PasswordResetService {
  constructor(private readonly deps: PasswordResetDeps) {}

  /** The same answer whether or not the address has an account; Google-only accounts are told to use Google. */
  async requestReset(email: string): Promise<string> {
    const { db, users, resets, mail, rate, publicUrl } = this.deps;
    // Per IP in the route hook (RATE_LIMITS['forgot-password']); per address here, known or not.
    await rate.check('forgot-password-email', email);
    const user = await users.findByEmail(email);
    if (!user) return AUTH_MESSAGES.resetRequested;
    if (user.google_auth === 1 && !user.password_hash) {
      await mail.enqueue(googleAccountResetMail(user.email, user.name, `${publicUrl}/signin`));
    } else {
      const { token, hash } = newLinkToken();
      await transact(db, async ({ db: trx }) => {
        await resets.insert(user.id, hash, new Date(Date.now() + RESET_TTL_MS).toISOString(), trx);
        await mail.enqueue(passwordResetMail(user.email, user.name, `${publicUrl}/reset-password/${token}`), trx);
      });
    }
    mail.kick();
    return AUTH_MESSAGES.resetRequested;
  }

  /**
   * Sets the new password, verifies the address (the link proved the mailbox), ends every other
   * reset and pending sign-up link, and revokes every session and open socket of the account.
   */
  async resetPassword(input: { token: string; password: string }): Promise<string> {
    const { db, users, resets, verifications } = this.deps;
    const row = await resets.findByHash(hashToken(input.token));
    if (!row || row.used_at || row.expires_at < nowIso()) throw badRequest(AUTH_MESSAGES.badResetLink);
    await refuseCommonPassword(input.password);
    const passwordHash = await hashPassword(input.password);
    await transact(db, async ({ db: trx }) => {
      if (!(await resets.useAllForUser(row.id, row.user_id, trx))) throw badRequest(AUTH_MESSAGES.badResetLink);
      await users.update(row.user_id, { password_hash: passwordHash, email_verified: 1, updated_at: nowIso() }, trx);
      await users.bumpTokenVersion(row.user_id, trx);
      await verifications.discardForUser(row.user_id, trx);
    });
    this.deps.sessions?.revoked(row.user_id);
    return AUTH_MESSAGES.passwordReset;
  }
}
