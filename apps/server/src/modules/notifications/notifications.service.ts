import type { Insertable, Kysely } from 'kysely';
import { newId, nowIso } from '../../db/ids';
import type { Database, NotificationsTable } from '../../db/schema';
import { notFound } from '../../lib/errors';
import { decodeTimeCursor, encodeCursor } from '../../lib/keyset-cursor';
import type { PlannedNotices, ToggleNotice, Tx } from '../../lib/tx';
import type { BlockingRepository } from '../blocking/blocking.repo';
import type { CommentsRepository, ThreadComment } from '../comments/comments.repo';
import { type NotificationView, presentNotification } from './notifications.presenter';
import type { NotificationFilterValue, NotificationKey, NotificationRow, NotificationsRepository } from './notifications.repo';

/** Where new notifications and counts are pushed: the realtime server's rooms (user:<id>). */
export interface NotificationPush {
  toUser(userId: string, event: 'newNotification' | 'unreadCountUpdate' | 'notificationRemoved', payload: unknown): void;
  /** False only when the user certainly has no open tab: then nothing is read to push. */
  mayBeListening(userId: string): boolean;
}

export interface NewNotification {
  recipientId: string;
  /** Null for the site's own notices (a moderator's action). */
  senderId: string | null;
  type: NotificationsTable['type'];
  blogId?: string | null;
  commentId?: string | null;
  message?: string | null;
  /** The recipient's users.relations when the caller read it: 0 means nobody blocked or muted anybody there. */
  recipientRelations?: number | null;
}

/** Rows per statement when notices are written or checked for blocks and mutes. */
export const FANOUT_BATCH = 500;
/** Recipients whose open tabs are told the new count when a deletion takes their unread notices (a count read each). */
const PUSH_ON_DELETE = 1000;

function rowOf(n: NewNotification, id: string): Insertable<NotificationsTable> {
  return {
    id,
    recipient_id: n.recipientId,
    sender_id: n.senderId,
    type: n.type,
    blog_id: n.blogId ?? null,
    comment_id: n.commentId ?? null,
    message: n.message ?? null,
    is_read: 0,
    created_at: nowIso(),
  };
}

/**
 * Creates notifications with the change that causes them, in its transaction or (PostgreSQL's
 * likes, comments and follows) its one statement, so they exist exactly when the like, comment or
 * follow does; pushes them to the recipient's open tabs after commit.
 */
export class NotificationsService {
  private push: NotificationPush = { toUser: () => {}, mayBeListening: () => false };
  /** Told when a push fails after its change committed: the change stands, the failure is logged. */
  private pushFailed: (err: unknown) => void = () => {};

  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      notifications: NotificationsRepository;
      blocking: BlockingRepository;
      comments: CommentsRepository;
    },
  ) {}

  attachPush(push: NotificationPush, onFailure: (err: unknown) => void): void {
    this.push = push;
    this.pushFailed = onFailure;
  }

  /** Records notifications (never about a person's own action) and schedules their push; answers how many. */
  async notify(items: NewNotification[], tx: Tx): Promise<number> {
    const planned = await this.plan(items, tx.db);
    await planned.record(tx.db);
    if (planned.ids.length) tx.afterCommit(() => planned.settle());
    return planned.ids.length;
  }

  /**
   * The notifications a change creates, decided before it writes them: never about a person's own
   * action, nobody silenced. `db` is the caller's transaction when there is one (SQLite has a
   * single connection, which the transaction holds).
   */
  async plan(items: NewNotification[], db: Kysely<Database> = this.deps.db): Promise<PlannedNotices> {
    const told = await this.told(items, db);
    const ids = told.map(() => newId());
    return {
      ids,
      recipientIds: told.map((n) => n.recipientId),
      types: told.map((n) => n.type),
      record: async (into) => {
        const rows = told.map((n, i) => rowOf(n, ids[i]!));
        for (let i = 0; i < rows.length; i += FANOUT_BATCH) await this.deps.notifications.insertMany(rows.slice(i, i + FANOUT_BATCH), into);
      },
      settle: async () => {
        const listened = ids.filter((_, i) => this.push.mayBeListening(told[i]!.recipientId));
        // A failed push never fails the request: the notifications are stored, the next read shows them.
        try {
          if (listened.length) await this.publish(listened);
        } catch (err) {
          this.pushFailed(err);
        }
      },
    };
  }

  /**
   * A toggle's notice (a like's, a follow's), decided before the toggle: created when it adds,
   * retracted when it takes back. A block or mute made in between is the same race a transaction
   * has under READ COMMITTED.
   */
  async planToggle(n: NewNotification & { senderId: string }): Promise<ToggleNotice> {
    const tell = (await this.told([n], this.deps.db)).length > 0;
    const id = newId();
    return {
      id,
      recipientId: n.recipientId,
      tell,
      record: async ({ added, removed }, db) => {
        if (added && tell) await this.deps.notifications.insertMany([rowOf(n, id)], db);
        else if (removed) await this.deps.notifications.deleteByKey(n, db);
      },
      settle: async ({ added, removed }) => {
        if (!this.push.mayBeListening(n.recipientId)) return;
        try {
          if (added && tell) await this.publish([id]);
          else if (removed) await this.pushRemoved(n.recipientId);
        } catch (err) {
          this.pushFailed(err);
        }
      },
    };
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
      // A notice from no one (the site's) has nobody to block or mute.
      if (n.recipientRelations === 0 || n.senderId === null) continue;
      const recipients = bySender.get(n.senderId);
      // Pushed in place: a copy per item made a post's fan-out to 70,000 followers quadratic (28 s on the event loop).
      if (recipients) recipients.push(n.recipientId);
      else bySender.set(n.senderId, [n.recipientId]);
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
  async retract(key: NotificationKey, tx: Tx, { push = true } = {}): Promise<void> {
    await this.deps.notifications.deleteByKey(key, tx.db);
    if (!push || !this.push.mayBeListening(key.recipientId)) return;
    tx.afterCommit(() => this.pushRemoved(key.recipientId).catch((err) => this.pushFailed(err)));
  }

  async list(userId: string, filter: NotificationFilterValue, page: number, limit: number, cursor?: string) {
    const after = decodeTimeCursor(cursor);
    const rows = await this.deps.notifications.list(userId, filter, limit, after ?? (page - 1) * limit);
    const shown = rows.slice(0, limit);
    const last = shown[shown.length - 1];
    return {
      notifications: await this.present(shown),
      hasMore: rows.length > limit,
      nextCursor: rows.length > limit && last ? encodeCursor([last.created_at, last.id]) : null,
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

  /**
   * A post or a comment (with its replies) is about to be deleted, and its notices with it: the
   * open tabs of recipients who had unread ones get their fresh count after the commit (their
   * lists are read again then). Bounded: past PUSH_ON_DELETE recipients, the rest see the
   * change at their next read.
   */
  async beforeDeleting(about: { blogId: string; commentId?: string }, tx: Tx): Promise<void> {
    this.pushCountsAfterCommit(await this.deps.notifications.unreadRecipientsAbout(about, PUSH_ON_DELETE, tx.db), tx);
  }

  /**
   * An account is about to be deleted: its notices to others go with it, and so do the notices
   * about its posts and comments (replies below them included). Told as a deletion is.
   */
  async beforeAccountErased(userId: string, tx: Tx): Promise<void> {
    const recipients = await this.deps.notifications.unreadRecipientsFrom(userId, { withContent: true }, PUSH_ON_DELETE, tx.db);
    this.pushCountsAfterCommit(recipients, tx);
  }

  /** A sender's suspension is about to start or end: their notices leave or come back to the counts. */
  async senderShownChanging(userId: string, tx: Tx): Promise<void> {
    const recipients = await this.deps.notifications.unreadRecipientsFrom(userId, { withContent: false }, PUSH_ON_DELETE, tx.db);
    this.pushCountsAfterCommit(recipients, tx);
  }

  /**
   * What this user's notifications show changed without a row changing (they blocked or muted a
   * sender, or took it back: the list and count filter those senders): their open tabs read again.
   */
  async shownChanged(userId: string): Promise<void> {
    if (!this.push.mayBeListening(userId)) return;
    await this.pushRemoved(userId).catch((err) => this.pushFailed(err));
  }

  /** Their open tabs get each recipient's count as it is once `tx` has committed. */
  private pushCountsAfterCommit(recipients: string[], tx: Tx): void {
    const listening = recipients.filter((id) => this.push.mayBeListening(id));
    if (!listening.length) return;
    tx.afterCommit(async () => {
      for (const id of listening) await this.pushCount(id).catch((err) => this.pushFailed(err));
    });
  }

  /** Sends each new notification, then each recipient's fresh unread count, to their open tabs. */
  private async publish(ids: string[]): Promise<void> {
    const recipients = new Set<string>();
    for (let i = 0; i < ids.length; i += FANOUT_BATCH) {
      const rows = await this.deps.notifications.findWithSubjects(ids.slice(i, i + FANOUT_BATCH));
      const views = await this.present(rows);
      rows.forEach((row, j) => {
        this.push.toUser(row.recipient_id, 'newNotification', views[j]);
        recipients.add(row.recipient_id);
      });
    }
    for (const id of recipients) await this.pushCount(id);
  }

  /** The views of these rows; a reply's is read with the comments above it (one query for all). */
  private async present(rows: NotificationRow[]): Promise<NotificationView[]> {
    const replies = [...new Set(rows.flatMap((r) => (r.comment_parent_id ? [r.comment_parent_id] : [])))];
    const above = await this.deps.comments.threads(replies);
    const none: ThreadComment[] = [];
    return rows.map((row) => presentNotification(row, (row.comment_parent_id && above.get(row.comment_parent_id)) || none));
  }

  /**
   * A notice taken back (an unlike, an unfollow), or a list that shows other rows now (a block, a
   * mute). Said apart from the count: one already read leaves the count as it was, and an open
   * list kept it (its Delete then failed) and showed it twice after a redo.
   */
  private async pushRemoved(userId: string): Promise<void> {
    this.push.toUser(userId, 'notificationRemoved', null);
    await this.pushCount(userId);
  }

  private async pushCount(userId: string): Promise<number> {
    const count = await this.deps.notifications.unreadCount(userId);
    this.push.toUser(userId, 'unreadCountUpdate', count);
    return count;
  }
}
