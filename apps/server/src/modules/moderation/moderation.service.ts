import {
  type AuditEntry,
  type HiddenItem,
  type HiddenListKind,
  MODERATION_MESSAGES,
  type ModerationAction,
  type ReportTargetType,
  type UserRole,
} from '@inkwell/core';
import type { Kysely } from 'kysely';
import { isUuid, newId, nowIso } from '../../db/ids';
import { type Database, HIDDEN_AUTHOR_SUSPENDED, HIDDEN_BY_MODERATOR } from '../../db/schema';
import { conflict, forbidden, notFound } from '../../lib/errors';
import { decodeTimeCursor, encodeCursor } from '../../lib/keyset-cursor';
import { canChangeRole, canSuspend, isModerator, type RoleFacts } from '../../lib/policies';
import { commentCountTags, LISTS_TAG, postTag, profileTag } from '../../lib/public-tags';
import { type Tx, transact } from '../../lib/tx';
import type { CountersRepository } from '../users/counters.repo';
import type { UsersRepository } from '../users/users.repo';
import { HiddenListRepository } from './hidden-list.repo';
import { HiddenListService } from './hidden-list.service';
import type { ModerationRepository } from './moderation.repo';
import type { ReportsService } from './reports.service';
import type { Target } from './targets';

export interface ModerationDeps {
  db: Kysely<Database>;
  users: UsersRepository;
  counters: CountersRepository;
  moderation: ModerationRepository;
  reports: ReportsService;
  /** auth.revokeAllSessions: the one path that revokes tokens and drops sockets on every instance. */
  revokeAllSessions(userId: string): Promise<void>;
  /** Drops the social cards of a hidden post or a suspended author's posts (uploads.dropCards). */
  dropCards(of: { blogId: string } | { ownerId: string }, tx: Tx): Promise<void>;
  /** A suspension is about to start or end: what the user sent leaves or comes back (notifications hook in here). */
  onSuspensionChanging?(userId: string, tx: Tx): Promise<void>;
  /** A moderator hid or restored someone's post or comment: its author is told, with the reason. */
  onHiddenChanged?(e: HiddenChange, tx: Tx): Promise<void>;
}

export interface HiddenChange {
  authorId: string;
  hidden: boolean;
  reason: string;
  blogDbId: string;
  /** Set for a comment. */
  commentDbId?: string;
}

/** Who acts: a moderator or admin from the browser, or null for the operator's command line (trusted). */
export type Actor = RoleFacts & { username: string };

/**
 * Moderator actions (issue 15). Each is one transaction with its audit row; hiding or restoring
 * also moves the counts a hidden item must not show (published_count, comment_count, reply_count).
 */
export class ModerationService {
  private readonly hidden: HiddenListService;

  constructor(private readonly deps: ModerationDeps) {
    this.hidden = new HiddenListService(new HiddenListRepository(deps.db));
  }

  /** The signed-in user if they are a moderator or admin, else 403. */
  async moderator(userId: string): Promise<Actor> {
    const user = await this.deps.users.findById(userId);
    if (!user || !isModerator(user)) throw forbidden(MODERATION_MESSAGES.notModerator);
    return user;
  }

  async dismiss(actor: Actor | null, reportId: string, reason: string | null): Promise<string> {
    const { moderation, reports } = this.deps;
    const report = isUuid(reportId) ? await moderation.findReport(reportId) : undefined;
    if (!report) throw notFound(MODERATION_MESSAGES.reportNotFound);
    if (report.status !== 'open') throw conflict(MODERATION_MESSAGES.reportClosed);
    const target = await this.targetByDbId(report.target_type, report.target_id, reports);
    await transact(this.deps.db, async (tx) => {
      if (!(await moderation.closeReport(reportId, actor?.id ?? null, nowIso(), tx.db))) throw conflict(MODERATION_MESSAGES.reportClosed);
      await this.audit(tx, actor, 'dismiss_report', target, reason);
    });
    return MODERATION_MESSAGES.reportDismissed;
  }

  /** Hide (on) or restore a post: like unpublishing it for every count and list, the author still sees it. */
  async setPostHidden(actor: Actor | null, blogId: string, on: boolean, reason: string): Promise<string> {
    const target = await this.deps.reports.resolve('post', blogId, null);
    if (!target) throw notFound(MODERATION_MESSAGES.postNotFound);
    const hidden = await this.deps.moderation.hiddenBits('blogs', target.dbId);
    if (on === !!(hidden & HIDDEN_BY_MODERATOR))
      throw conflict(on ? MODERATION_MESSAGES.postAlreadyHidden : MODERATION_MESSAGES.postNotHidden);
    await transact(this.deps.db, async (tx) => {
      await this.deps.moderation.setBlogBit(target.dbId, HIDDEN_BY_MODERATOR, on, tx.db);
      if (on) await this.deps.dropCards({ blogId: target.dbId }, tx);
      await this.deps.counters.recountUsers([target.ownerId], tx.db);
      await this.finish(tx, actor, on ? 'hide_post' : 'restore_post', target, reason, on);
      await this.deps.onHiddenChanged?.({ authorId: target.ownerId, hidden: on, reason, blogDbId: target.dbId }, tx);
      const author = await this.deps.users.usernameOf(target.ownerId, tx.db);
      await tx.touch([postTag(target.apiId), LISTS_TAG, ...(author ? [profileTag(author)] : [])], ['blogs', 'blog_tags', 'users']);
    });
    return on ? MODERATION_MESSAGES.postHidden : MODERATION_MESSAGES.postRestored;
  }

  /** Hide or restore a comment: like deleting it (with its replies) for the counts; its author still sees it. */
  async setCommentHidden(actor: Actor | null, commentId: string, on: boolean, reason: string): Promise<string> {
    const target = await this.deps.reports.resolve('comment', commentId, null);
    const comment = target && (await this.deps.moderation.commentRef(target.dbId));
    if (!target || !comment) throw notFound(MODERATION_MESSAGES.commentNotFound);
    if (on === !!(Number(comment.hidden) & HIDDEN_BY_MODERATOR)) {
      throw conflict(on ? MODERATION_MESSAGES.commentAlreadyHidden : MODERATION_MESSAGES.commentNotHidden);
    }
    await transact(this.deps.db, async (tx) => {
      const { counters, moderation } = this.deps;
      await moderation.setCommentBit(target.dbId, HIDDEN_BY_MODERATOR, on, tx.db);
      if (comment.parent_id) await counters.recountComments([comment.parent_id], tx.db);
      await counters.recountBlogComments([comment.blog_id], tx.db);
      await this.finish(tx, actor, on ? 'hide_comment' : 'restore_comment', target, reason, on);
      const change = { authorId: target.ownerId, hidden: on, reason, blogDbId: comment.blog_id, commentDbId: target.dbId };
      await this.deps.onHiddenChanged?.(change, tx);
      const blogId = await this.deps.moderation.publicBlogId(comment.blog_id, tx.db);
      // Like a comment deletion: the threads and the page's counts at once, list cards' within the counts lag.
      if (blogId) await tx.touch(commentCountTags(blogId), ['comments', 'blogs']);
    });
    return on ? MODERATION_MESSAGES.commentHidden : MODERATION_MESSAGES.commentRestored;
  }

  /**
   * Suspend (on) or unsuspend. A suspension hides everything the user wrote (bit 2, so a
   * moderator's own hides survive an unsuspension), closes the reports on their profile and then
   * revokes every token and socket through auth's revokeAllSessions. Not declared to the cache:
   * it may change any page, so every cached copy goes.
   */
  async setSuspended(actor: Actor | null, userId: string, on: boolean, reason: string): Promise<string> {
    const { users, moderation, counters, reports } = this.deps;
    const user = isUuid(userId) ? await users.findById(userId) : undefined;
    if (!user) throw notFound(MODERATION_MESSAGES.userNotFound);
    if (actor && !canSuspend(actor, user)) {
      throw forbidden(actor.id === user.id ? MODERATION_MESSAGES.suspendSelf : MODERATION_MESSAGES.suspendAdmin);
    }
    if (on === !!user.suspended_at) throw conflict(on ? MODERATION_MESSAGES.alreadySuspended : MODERATION_MESSAGES.notSuspended);
    const target = (await reports.resolve('user', userId, null))!;
    await transact(this.deps.db, async (tx) => {
      await this.deps.onSuspensionChanging?.(userId, tx);
      await moderation.setSuspended(userId, on ? nowIso() : null, tx.db);
      await moderation.setAuthorBit(userId, HIDDEN_AUTHOR_SUSPENDED, on, tx.db);
      if (on) await this.deps.dropCards({ ownerId: userId }, tx);
      const touched = await moderation.commentCountsTouchedBy(userId, tx.db);
      await counters.recountUsers([userId], tx.db);
      await counters.recountComments(touched.parentIds, tx.db);
      await counters.recountBlogComments(touched.blogIds, tx.db);
      await this.finish(tx, actor, on ? 'suspend_user' : 'unsuspend_user', target, reason, on);
    });
    if (on) await this.deps.revokeAllSessions(userId);
    return on ? MODERATION_MESSAGES.userSuspended : MODERATION_MESSAGES.userUnsuspended;
  }

  /** Admins (and the command line) grant and revoke roles; nobody changes their own. */
  async setRole(actor: Actor | null, userId: string, role: UserRole): Promise<string> {
    const user = isUuid(userId) ? await this.deps.users.findById(userId) : undefined;
    if (!user) throw notFound(MODERATION_MESSAGES.userNotFound);
    if (actor && !canChangeRole(actor, user)) {
      throw forbidden(actor.id === user.id && actor.role === 'admin' ? MODERATION_MESSAGES.ownRole : MODERATION_MESSAGES.notAdmin);
    }
    if (user.role === role) throw conflict(MODERATION_MESSAGES.roleUnchanged);
    const target: Target = { type: 'user', dbId: user.id, apiId: user.id, ownerId: user.id, label: `${user.username} (${role})` };
    await transact(this.deps.db, async (tx) => {
      await this.deps.moderation.setRole(userId, role, tx.db);
      await this.audit(tx, actor, role === 'user' ? 'revoke_role' : 'grant_role', target, null);
      // A role shows on no public page.
      await tx.touch([], ['users']);
    });
    return MODERATION_MESSAGES.roleChanged;
  }

  /** The audit log, newest first. */
  async auditLog(cursor: string | undefined, limit: number): Promise<{ items: AuditEntry[]; nextCursor: string | null }> {
    const rows = await this.deps.moderation.auditPage(decodeTimeCursor(cursor), limit);
    const page = rows.slice(0, limit);
    const items = page.map(
      (r): AuditEntry => ({
        id: r.id,
        moderator: r.m_username
          ? { id: r.moderator_id!, username: r.m_username, name: r.m_name ?? r.m_username }
          : r.moderator_username // the moderator's account is gone: the name they had
            ? { id: '', username: r.moderator_username, name: r.moderator_username }
            : null,
        action: r.action as ModerationAction,
        targetType: r.target_type,
        targetId: r.target_id,
        targetLabel: r.target_label,
        reason: r.reason,
        createdAt: r.created_at,
      }),
    );
    const last = page[page.length - 1];
    return { items, nextCursor: rows.length > limit && last ? encodeCursor([last.created_at, last.id]) : null };
  }

  /** 'Hidden and suspended': hidden posts or comments, or suspended users, newest hide first (hidden-list.service.ts). */
  hiddenList(kind: HiddenListKind, cursor: string | undefined, limit: number): Promise<{ items: HiddenItem[]; nextCursor: string | null }> {
    return this.hidden.list(kind, cursor, limit);
  }

  /** The audit row, and for a hide or suspension the item's open reports closed as 'actioned'. */
  private async finish(tx: Tx, actor: Actor | null, action: ModerationAction, target: Target, reason: string, closes: boolean) {
    if (closes) await this.deps.moderation.closeReportsOf(target.type, target.dbId, actor?.id ?? null, nowIso(), tx.db);
    await this.audit(tx, actor, action, target, reason);
  }

  /** Writes the audit row (public: the command line's delete-user writes one inside the account deletion). */
  async audit(tx: Tx, actor: Actor | null, action: ModerationAction, target: Target, reason: string | null): Promise<void> {
    await this.deps.moderation.insertAudit(
      {
        id: newId(),
        moderator_id: actor?.id ?? null,
        moderator_username: actor?.username ?? null,
        action,
        target_type: target.type,
        target_id: target.apiId,
        target_label: target.label,
        reason,
        created_at: nowIso(),
      },
      tx.db,
    );
  }

  /** A report's item as the audit log names it (it exists: deleting it deletes its reports). */
  private async targetByDbId(type: ReportTargetType, dbId: string, reports: ReportsService): Promise<Target> {
    if (type !== 'post') return (await reports.resolve(type, dbId, null)) ?? { type, dbId, apiId: dbId, ownerId: '', label: '' };
    const blogId = await this.deps.moderation.publicBlogId(dbId);
    return (blogId ? await reports.resolve('post', blogId, null) : undefined) ?? { type, dbId, apiId: dbId, ownerId: '', label: '' };
  }
}
