import { USER_MESSAGES } from '@inkwell/core';
import type { Kysely } from 'kysely';
import { nowIso } from '../../db/ids';
import type { Database } from '../../db/schema';
import { refuseCommonPassword } from '../../lib/common-passwords';
import { badRequest, forbidden, unauthorized } from '../../lib/errors';
import { hashPassword, verifyPassword } from '../../lib/password';
import { canDeleteAccount } from '../../lib/policies';
import type { SessionEvents } from '../../lib/session-events';
import { type Tx, transact } from '../../lib/tx';
import type { MailRepository } from '../../mail/mail.repo';
import type { PasswordResetRepository } from '../auth/auth.repo';
import type { NewsletterRepository } from '../newsletter/newsletter.repo';
import type { SearchRepository } from '../search/search.repo';
import type { UploadsService } from '../uploads/uploads.service';
import type { CountersRepository } from './counters.repo';
import { lockAccountsAndPartners } from './lock-accounts';
import type { UserRow, UsersRepository } from './users.repo';

export interface AccountDeps {
  db: Kysely<Database>;
  users: UsersRepository;
  counters: CountersRepository;
  search: SearchRepository;
  uploads: UploadsService;
  mail: MailRepository;
  newsletter: NewsletterRepository;
  /** A changed password ends the reset links mailed before it. */
  resets: PasswordResetRepository;
  /** Told when tokens stop working, so live sockets of the user are dropped too. */
  sessions?: SessionEvents;
  /** The account is about to be deleted, with everything it owns (notifications hook in here). */
  onErasing?(userId: string, tx: Tx): Promise<void>;
}

/**
 * Google accounts sign in through Google and never chose a password here (SPEC.md 6: no
 * password for deletion or transfer). Anyone else re-proves who they are with theirs.
 */
export const needsPassword = (user: Pick<UserRow, 'google_auth'>) => user.google_auth !== 1;

/** Change password and delete account (SPEC.md 2 Settings, 4, 5). */
export class AccountService {
  constructor(private readonly deps: AccountDeps) {}

  /** Bumping the token version signs out every device, this one included (the client goes to /signin). */
  async changePassword(userId: string, input: { currentPassword?: string; newPassword: string }): Promise<void> {
    const { users } = this.deps;
    const user = await this.current(userId);
    if (!user.password_hash && user.google_auth === 1) throw badRequest(USER_MESSAGES.googleNoPassword);
    if (!input.currentPassword) throw badRequest(USER_MESSAGES.currentPasswordMissing);
    if (!user.password_hash || !(await verifyPassword(user.password_hash, input.currentPassword))) {
      throw forbidden(USER_MESSAGES.wrongCurrentPassword);
    }
    await refuseCommonPassword(input.newPassword);
    const passwordHash = await hashPassword(input.newPassword);
    await transact(this.deps.db, async ({ db: trx }) => {
      await users.update(userId, { password_hash: passwordHash, updated_at: nowIso() }, trx);
      await users.bumpTokenVersion(userId, trx);
      // A reset link mailed before the change (perhaps to a mailbox someone else reads) must not undo it.
      await this.deps.resets.useAllOpen(userId, trx);
    });
    this.deps.sessions?.revoked(userId);
  }

  /**
   * Deletes the account and everything it owns in one transaction. ON DELETE CASCADE removes
   * the rows; the counters of what survives (other people's blogs, comments and follow counts)
   * are recounted from the real rows afterwards; files go once the delete has committed.
   */
  async deleteAccount(userId: string, targetId: string, input: { currentPassword?: string }): Promise<void> {
    if (!canDeleteAccount(userId, targetId)) throw forbidden(USER_MESSAGES.notYourAccount);
    const user = await this.current(userId);
    if (needsPassword(user)) {
      if (!input.currentPassword) throw badRequest(USER_MESSAGES.currentPasswordMissing);
      if (!user.password_hash || !(await verifyPassword(user.password_hash, input.currentPassword))) {
        throw forbidden(USER_MESSAGES.wrongCurrentPassword);
      }
    }
    await this.eraseAccount(user);
  }

  /**
   * The deletion itself, with no checks: the settings call above after its checks, and the
   * operator's `npm run admin -- delete-user` (issue 15), whose audit row `alsoInTx` writes in the
   * same transaction.
   */
  async eraseAccount(user: UserRow, alsoInTx?: (tx: Tx) => Promise<void>): Promise<void> {
    const { db, users, counters, search, uploads, mail, newsletter } = this.deps;
    const userId = user.id;
    let fileKeys: string[] = [];
    await transact(db, async (tx) => {
      const trx = tx.db;
      // First, so the rows read next are all the account's: nothing new can refer to it meanwhile.
      const userIds = await lockAccountsAndPartners([userId], { users, counters }, trx);
      const touchedBlogs = await counters.blogsTouchedBy(userId, trx);
      const commentIds = await counters.commentsTouchedBy(userId, trx);
      fileKeys = await counters.uploadKeys(userId, trx);
      await this.deps.onErasing?.(userId, tx);
      // SQLite's FTS table has no foreign key; its rows for the user's blogs are removed by hand.
      for (const rowid of await counters.searchRowids(userId, trx)) await search.remove(rowid, trx);
      await users.delete(userId, trx);
      // The outbox has no foreign key either: its messages to the account go with it.
      await mail.deleteForAddress(user.email, trx);
      // Digest settings and sends, and a newsletter subscription of the same address.
      await newsletter.forgetAccount(userId, user.email, trx);
      await counters.recountBlogs(touchedBlogs, trx);
      await counters.recountComments(commentIds, trx);
      await counters.recountUsers(userIds, trx);
      await alsoInTx?.(tx);
    });
    this.deps.sessions?.revoked(userId);
    await uploads.deleteFiles(fileKeys);
  }

  private async current(userId: string): Promise<UserRow> {
    const user = await this.deps.users.findById(userId);
    if (!user) throw unauthorized(USER_MESSAGES.sessionExpired);
    return user;
  }
}
