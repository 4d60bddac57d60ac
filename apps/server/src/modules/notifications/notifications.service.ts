import type { Kysely } from 'kysely';
import { newId, nowIso } from '../../db/ids';
import type { Database, NotificationsTable } from '../../db/schema';
import { notFound } from '../../lib/errors';
import type { StatementNotices, ToggleNotice, Tx } from '../../lib/tx';
import type { BlockingRepository } from '../blocking/blocking.repo';
import { type NotificationView, presentNotification } from './notifications.presenter';
import type { NotificationFilterValue, NotificationKey, NotificationsRepository } from './notifications.repo';

/** Where new notifications and counts are pushed: the realtime server's rooms (user:<id>). */
export interface NotificationPush {
  toUser(userId: string, event: 'newNotification' | 'unreadCountUpdate', payload: unknown): void;
  /** False only when the user certainly has no open tab: then nothing is read to push. */
  mayBeListening(userId: string): boolean;
}

export interface NewNotification {
  recipientId: string;
  senderId: string;
  type: NotificationsTable['type'];
  blogId?: string | null;
  commentId?: string | null;
  message?: string | null;
  /** The recipient's users.relations when the caller read it: 0 means nobody blocked or muted anybody there. */
  recipientRelations?: number | null;
}

const FANOUT_BATCH = 500;

/**
 * Creates notifications inside the caller's transaction (so they exist exactly when the
 * like, comment or follow does) and pushes them to the recipient's open tabs after commit.
 */
export class NotificationsService {
  private push: NotificationPush = { toUser: () => {}, mayBeListening: () => false };

  constructor(private readonly deps: { db: Kysely<Database>; notifications: NotificationsRepository; blocking: BlockingRepository }) {}

  attachPush(push: NotificationPush): void {
    this.push = push;
  }

  /** Records notifications (never about a person's own action) and schedules their push. */
  async notify(items: NewNotification[], tx: Tx): Promise<void> {
    const rows = (await this.told(items, tx.db)).map((n) => ({
      id: newId(),
      recipient_id: n.recipientId,
      sender_id: n.senderId,
      type: n.type,
      blog_id: n.blogId ?? null,
      comment_id: n.commentId ?? null,
      message: n.message ?? null,
      is_read: 0 as const,
      created_at: nowIso(),
    }));
    for (let i = 0; i < rows.length; i += FANOUT_BATCH) await this.deps.notifications.insertMany(rows.slice(i, i + FANOUT_BATCH), tx.db);
    const listened = rows.filter((r) => this.push.mayBeListening(r.recipient_id));
    if (listened.length) tx.afterCommit(() => this.publish(listened.map((r) => r.id)));
  }

  /** The items that are created: never about a person's own action, nobody silenced. */
  private async told(items: NewNotification[], db: Kysely<Database>): Promise<NewNotification[]> {
    const own = items.filter((n) => n.recipientId !== n.senderId);
    const silenced = await this.silenced(own, db);
    return own.filter((n) => !silenced.has(`${n.senderId} ${n.recipientId}`));
  }

  /** "sender recipient" pairs with a block (either way) or a mute by the recipient: nothing is created for them. */
  private async silenced(items: NewNotification[], db: Kysely<Database>): Promise<Set<string>> {
    const bySender = new Map<string, string[]>();
    for (const n of items) {
      // A block or mute involving the recipient sets their relations flag (BlockingRepository.add).
      if (n.recipientRelations !== 0) bySender.set(n.senderId, [...(bySender.get(n.senderId) ?? []), n.recipientId]);
    }
    const pairs = new Set<string>();
    for (const [sender, recipients] of bySender) {
      for (let i = 0; i < recipients.length; i += FANOUT_BATCH) {
        const ids = await this.deps.blocking.silencedRecipients(sender, recipients.slice(i, i + FANOUT_BATCH), db);
        for (const id of ids) pairs.add(`${sender} ${id}`);
      }
    }
    return pairs;
  }

  /** Undo of a like, comment like or follow removes what it created, so toggling does not spam. */
  async retract(key: NotificationKey, tx: Tx): Promise<void> {
    await this.deps.notifications.deleteByKey(key, tx.db);
    if (this.push.mayBeListening(key.recipientId)) tx.afterCommit(() => this.pushCount(key.recipientId));
  }

  /**
   * The same as notify and retract, for a toggle made as one statement (PostgreSQL): the notice's
   * id and whether it is created (never about one's own action, nobody silenced), read before the
   * statement, and the push once the statement has run. A block or mute made in between is the
   * same race the transaction has under READ COMMITTED.
   */
  async toggleNotice(n: NewNotification): Promise<ToggleNotice> {
    const tell = (await this.told([n], this.deps.db)).length > 0;
    const id = newId();
    return {
      id,
      recipientId: n.recipientId,
      tell,
      settle: async ({ added, removed }) => {
        if (!this.push.mayBeListening(n.recipientId)) return;
        // Like transact's after-commit callbacks: a failed push never fails the request.
        try {
          if (added && tell) await this.publish([id]);
          else if (removed) await this.pushCount(n.recipientId);
        } catch {}
      },
    };
  }

  /** The same as notify for a change made as one statement (a comment on PostgreSQL): its rows, then its push. */
  async statementNotices(items: NewNotification[]): Promise<StatementNotices> {
    const told = await this.told(items, this.deps.db);
    const ids = told.map(() => newId());
    return {
      ids,
      recipientIds: told.map((n) => n.recipientId),
      types: told.map((n) => n.type),
      settle: async () => {
        const listened = ids.filter((_, i) => this.push.mayBeListening(told[i]!.recipientId));
        try {
          if (listened.length) await this.publish(listened);
        } catch {}
      },
    };
  }

  /** A new post tells the author's followers. */
  async notifyFollowersOfPost(authorId: string, blogDbId: string, tx: Tx): Promise<void> {
    const followers = await this.deps.notifications.followerIds(authorId, tx.db);
    await this.notify(
      followers.map((f) => ({ recipientId: f.id, senderId: authorId, type: 'other', blogId: blogDbId, message: 'published a new post' })),
      tx,
    );
  }

  /** An edit of a published post tells the people who liked or saved it, once per unread notice. */
  async notifyReactorsOfUpdate(authorId: string, blogDbId: string, tx: Tx): Promise<void> {
    await this.deps.notifications.deleteUnreadUpdates(blogDbId, tx.db);
    const reactors = await this.deps.notifications.reactorIds(blogDbId, authorId, tx.db);
    await this.notify(
      reactors.map((id) => ({ recipientId: id, senderId: authorId, type: 'blog-update', blogId: blogDbId })),
      tx,
    );
  }

  async list(userId: string, filter: NotificationFilterValue, page: number, limit: number) {
    const rows = await this.deps.notifications.list(userId, filter, limit, (page - 1) * limit);
    return {
      notifications: rows.slice(0, limit).map(presentNotification),
      hasMore: rows.length > limit,
      unreadCount: await this.deps.notifications.unreadCount(userId),
    };
  }

  async markRead(userId: string, id: string): Promise<number> {
    if (!(await this.deps.notifications.markRead(userId, id))) throw notFound('Notification not found');
    return this.pushCount(userId);
  }

  async markAllRead(userId: string): Promise<number> {
    await this.deps.notifications.markAllRead(userId);
    return this.pushCount(userId);
  }

  async remove(userId: string, id: string): Promise<number> {
    if (!(await this.deps.notifications.delete(userId, id))) throw notFound('Notification not found');
    return this.pushCount(userId);
  }

  async removeAll(userId: string): Promise<number> {
    await this.deps.notifications.deleteAll(userId);
    return this.pushCount(userId);
  }

  /** Sends each new notification, then each recipient's fresh unread count, to their open tabs. */
  private async publish(ids: string[]): Promise<void> {
    const recipients = new Set<string>();
    for (let i = 0; i < ids.length; i += FANOUT_BATCH) {
      const rows = await this.deps.notifications.findWithSubjects(ids.slice(i, i + FANOUT_BATCH));
      for (const row of rows) {
        const view: NotificationView = presentNotification(row);
        this.push.toUser(row.recipient_id, 'newNotification', view);
        recipients.add(row.recipient_id);
      }
    }
    for (const id of recipients) await this.pushCount(id);
  }

  private async pushCount(userId: string): Promise<number> {
    const count = await this.deps.notifications.unreadCount(userId);
    this.push.toUser(userId, 'unreadCountUpdate', count);
    return count;
  }
}
