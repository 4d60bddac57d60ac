import { TRANSFER_MESSAGES, type TransferResultData, USER_MESSAGES } from '@inkwell/core';
import type { Kysely } from 'kysely';
import { newId, nowIso } from '../../db/ids';
import type { Database } from '../../db/schema';
import { hashToken, newLinkToken } from '../../lib/crypto';
import { badRequest, conflict, forbidden, notFound, unauthorized } from '../../lib/errors';
import { verifyPassword } from '../../lib/password';
import { canTransferAccount } from '../../lib/policies';
import type { RateGuard } from '../../lib/rate-guard';
import type { SessionEvents } from '../../lib/session-events';
import { transact } from '../../lib/tx';
import type { MailService } from '../../mail/mail.service';
import { transferNoticeMail, transferRequestMail, transferResultMail } from '../../mail/templates';
import type { UploadsService } from '../uploads/uploads.service';
import { needsPassword } from '../users/account.service';
import type { CountersRepository } from '../users/counters.repo';
import { lockAccountsAndPartners } from '../users/lock-accounts';
import type { UsersRepository } from '../users/users.repo';
import type { AccountMergeRepository } from './transfer.merge.repo';
import type { TransferAction, TransferRepository } from './transfer.repo';

const TRANSFER_TTL_MS = 48 * 3600_000;
const NOTHING_MOVED: TransferResultData = { transferredBlogs: 0, transferredComments: 0, transferredFollowers: 0 };

export interface TransferDeps {
  db: Kysely<Database>;
  users: UsersRepository;
  transfers: TransferRepository;
  merge: AccountMergeRepository;
  counters: CountersRepository;
  uploads: UploadsService;
  mail: MailService;
  rate: RateGuard;
  publicUrl: string;
  /** Told when the sender's account is gone, so their live sockets are dropped. */
  sessions?: SessionEvents;
}

/**
 * Account transfer (SPEC.md 2 Settings, Transfer confirmation): the sender asks, the
 * recipient answers through a mailed link, and on accept everything moves in one transaction.
 */
export class TransferService {
  constructor(private readonly deps: TransferDeps) {}

  async request(userId: string, input: { newOwnerEmail: string; currentPassword?: string }): Promise<string> {
    const { db, users, transfers, mail, rate, publicUrl } = this.deps;
    const sender = await users.findById(userId);
    if (!sender) throw unauthorized(USER_MESSAGES.sessionExpired);
    if (input.newOwnerEmail === sender.email) throw badRequest(TRANSFER_MESSAGES.self);
    if (needsPassword(sender) && !input.currentPassword) throw badRequest(TRANSFER_MESSAGES.passwordRequired);
    // Counted before the password check, so the limit also caps password guesses here.
    await rate.check('transfer-mail', userId);
    if (needsPassword(sender) && !(sender.password_hash && (await verifyPassword(sender.password_hash, input.currentPassword!)))) {
      throw forbidden(TRANSFER_MESSAGES.passwordWrong);
    }
    const recipient = await users.findByEmail(input.newOwnerEmail);
    if (!recipient?.email_verified) throw notFound(TRANSFER_MESSAGES.recipientNotFound);
    // The sender's own suspension ends their sessions; the recipient's is not told to the sender.
    if (!canTransferAccount(sender, recipient)) throw notFound(TRANSFER_MESSAGES.recipientNotFound);

    const accept = newLinkToken();
    const reject = newLinkToken();
    const now = nowIso();
    await transact(db, async ({ db: trx }) => {
      await transfers.expirePending(sender.id, now, trx);
      await transfers.insert(
        {
          id: newId(),
          from_user_id: sender.id,
          to_user_id: recipient.id,
          accept_token_hash: accept.hash,
          reject_token_hash: reject.hash,
          status: 'pending',
          expires_at: new Date(Date.now() + TRANSFER_TTL_MS).toISOString(),
          created_at: now,
          resolved_at: null,
        },
        trx,
      );
      const links = {
        accept: `${publicUrl}/confirm-transfer/accept/${accept.token}`,
        reject: `${publicUrl}/confirm-transfer/reject/${reject.token}`,
      };
      await mail.enqueue(transferRequestMail(recipient.email, sender, links), trx);
      await mail.enqueue(transferNoticeMail(sender.email, sender.name, recipient.email, `${publicUrl}/setting`), trx);
    });
    mail.kick();
    return TRANSFER_MESSAGES.sent;
  }

  /** Accepts or rejects through a mailed link; exactly one of many concurrent clicks succeeds. */
  async confirm(action: string, token: string): Promise<{ message: string; data: TransferResultData }> {
    const { db, users, transfers, mail, publicUrl } = this.deps;
    if (action !== 'accept' && action !== 'reject') throw badRequest(TRANSFER_MESSAGES.badLink);
    const request = await transfers.findByHash(action as TransferAction, hashToken(token));
    const now = nowIso();
    if (request?.status !== 'pending' || request.expires_at <= now) throw badRequest(TRANSFER_MESSAGES.badLink);

    let fileKeys: string[] = [];
    const data = await transact(db, async ({ db: trx }) => {
      if (!(await transfers.claim(request.id, action === 'accept' ? 'accepted' : 'rejected', now, trx))) {
        throw badRequest(TRANSFER_MESSAGES.badLink);
      }
      const sender = await users.findById(request.from_user_id, trx);
      const recipient = await users.findById(request.to_user_id, trx);
      if (!sender || !recipient) throw badRequest(TRANSFER_MESSAGES.badLink);
      // Refused, not used up: the link works again if the suspension is lifted before it expires.
      if (action === 'accept' && !canTransferAccount(sender, recipient)) throw conflict(TRANSFER_MESSAGES.suspended);
      let result = NOTHING_MOVED;
      if (action === 'accept') {
        const moved = await this.moveAccount(sender.id, recipient.id, trx);
        result = moved.data;
        fileKeys = moved.fileKeys;
      }
      await mail.enqueue(transferResultMail(sender.email, sender.name, recipient.email, action === 'accept', publicUrl), trx);
      return result;
    });
    mail.kick();
    if (action === 'accept') this.deps.sessions?.revoked(request.from_user_id);
    await this.deps.uploads.deleteFiles(fileKeys);
    return { message: action === 'accept' ? TRANSFER_MESSAGES.accepted : TRANSFER_MESSAGES.rejected, data };
  }

  /**
   * Everything the sender owns becomes the recipient's, the sender is deleted, and every
   * counter the move can change is recounted from the real rows.
   */
  private async moveAccount(from: string, to: string, trx: Kysely<Database>): Promise<{ data: TransferResultData; fileKeys: string[] }> {
    const { merge, counters, users } = this.deps;
    // First, so the rows read next are all the accounts': nothing new can refer to them meanwhile.
    const partners = await lockAccountsAndPartners([from], { users, counters }, trx, [to]);
    // Read before anything moves: these are the rows whose counters may change.
    const touchedBlogs = await counters.blogsTouchedBy(from, trx);
    const commentIds = await counters.commentsTouchedBy(from, trx);
    // The sender's follow partners, and its block partners: a block carried over ends the
    // recipient's follows with that person (the recipient's own blocks already did).
    const userIds = [to, ...partners, ...(await merge.blockPartners(from, trx))];

    const transferredBlogs = await merge.moveBlogs(from, to, trx);
    const transferredComments = await merge.moveComments(from, to, trx);
    // The posts' series and unsaved work go with them (issue 16).
    await merge.moveSeries(from, to, trx);
    await merge.moveAutosaves(from, to, trx);
    const fileKeys = await merge.dropAvatars(from, trx);
    await merge.moveUploads(from, to, trx);
    await merge.mergeReactions('likes', from, to, trx);
    await merge.mergeReactions('saves', from, to, trx);
    await merge.mergeCommentLikes(from, to, trx);
    // Blocks and mutes first, so no follower comes over across a block (see docs/decisions.md).
    await merge.mergeRelations(from, to, trx);
    const transferredFollowers = await merge.mergeFollowers(from, to, trx);
    await merge.dropBlockedFollows(to, trx);
    // What is left (the sender's own follows, notifications, links) goes with the account.
    await users.delete(from, trx);

    await counters.recountBlogs(touchedBlogs, trx);
    await counters.recountComments(commentIds, trx);
    await counters.recountUsers(userIds, trx);
    return { data: { transferredBlogs, transferredComments, transferredFollowers }, fileKeys };
  }
}
