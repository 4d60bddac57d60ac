import type { Kysely } from 'kysely';
import { nowIso } from '../../db/ids';
import type { Database } from '../../db/schema';
import { isPubliclyVisible } from '../../lib/policies';
import { type Tx, transact } from '../../lib/tx';
import type { BlogsRepository } from '../blogs/blogs.repo';
import type { Fanout, FanoutKind, FanoutsRepository, Recipient } from './fanouts.repo';
import type { NotificationsRepository } from './notifications.repo';
import { FANOUT_BATCH, type NotificationsService } from './notifications.service';

const NOTICES: Record<FanoutKind, { type: 'other' | 'blog-update'; message: string | null }> = {
  published: { type: 'other', message: 'published a new post' },
  updated: { type: 'blog-update', message: null },
};

/**
 * A post's notices to its author's followers (at its first publication) and to its likers and
 * savers (at each edit). The change's own transaction tells the first FANOUT_BATCH recipients, so
 * nearly every post is told at once and with it; past those it leaves a fan-out row and the
 * notification-fanout job tells the rest, FANOUT_BATCH a transaction, yielding between them:
 * however many followers an author has, a publish does bounded work.
 */
export class PostFanout {
  /** Called after the commit of a change that left a fan-out (services.ts runs the job then). */
  private queued: () => void = () => {};

  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      fanouts: FanoutsRepository;
      notifications: NotificationsRepository;
      notify: NotificationsService;
      blogs: BlogsRepository;
    },
  ) {}

  onQueued(run: () => void): void {
    this.queued = run;
  }

  /** A new post tells the author's followers. */
  async followersOfPost(authorId: string, blogDbId: string, tx: Tx): Promise<void> {
    await this.start({ kind: 'published', blogDbId, authorId }, tx);
  }

  /**
   * An edit of a published post tells the people who liked or saved it, once per unread notice:
   * an earlier edit's fan-out still running is taken away first (and waited for), then its
   * unread notices, and this one starts from the beginning.
   */
  async reactorsOfUpdate(authorId: string, blogDbId: string, tx: Tx): Promise<void> {
    await this.deps.fanouts.remove(blogDbId, 'updated', tx.db);
    await this.deps.notifications.deleteUnreadUpdates(blogDbId, tx.db);
    await this.start({ kind: 'updated', blogDbId, authorId }, tx);
  }

  /**
   * The job: tells each unfinished fan-out's recipients a batch at a time, oldest fan-out first,
   * until none is left or `keepGoing` says stop. Answers the notices written.
   */
  async continue(keepGoing: () => Promise<boolean>): Promise<{ notices: number; finished: number }> {
    const done = { notices: 0, finished: 0 };
    for (;;) {
      const next = await this.deps.fanouts.oldest();
      if (!next) return done;
      const step = await transact(this.deps.db, (tx) => this.nextBatch(next, tx));
      done.notices += step.notices;
      if (step.finished) done.finished++;
      if (!(await keepGoing())) return done;
    }
  }

  private async start(f: { kind: FanoutKind; blogDbId: string; authorId: string }, tx: Tx): Promise<void> {
    const batch = await this.recipients(f.kind, f.blogDbId, f.authorId, null, tx.db);
    await this.tell(f.kind, f.blogDbId, f.authorId, batch, tx);
    if (batch.length < FANOUT_BATCH) return;
    const last = batch[batch.length - 1]!;
    const row = {
      blog_id: f.blogDbId,
      kind: f.kind,
      sender_id: f.authorId,
      after_id: last.id,
      after_time: last.time,
      created_at: nowIso(),
    };
    await this.deps.fanouts.save(row, tx.db);
    tx.afterCommit(() => this.queued());
  }

  /**
   * One batch of a fan-out, under the post's lock and then the fan-out's (the order an edit takes
   * them in, so the two never deadlock). A post no longer public (deleted, back to draft, hidden)
   * ends its fan-out: the rest are not told.
   */
  private async nextBatch(seen: Fanout, tx: Tx): Promise<{ notices: number; finished: boolean }> {
    const post = await this.deps.blogs.lockState(seen.blog_id, tx.db);
    const fanout = await this.deps.fanouts.lock(seen.blog_id, seen.kind, tx.db);
    // Gone meanwhile (finished by another run, or an edit took it to start over): nothing to do here.
    if (!fanout) return { notices: 0, finished: false };
    if (!post || !isPubliclyVisible(post)) {
      await this.deps.fanouts.remove(fanout.blog_id, fanout.kind, tx.db);
      return { notices: 0, finished: true };
    }
    const after = { id: fanout.after_id, time: fanout.after_time };
    const batch = await this.recipients(fanout.kind, fanout.blog_id, fanout.sender_id, after, tx.db);
    const notices = await this.tell(fanout.kind, fanout.blog_id, fanout.sender_id, batch, tx);
    const last = batch[batch.length - 1];
    if (batch.length < FANOUT_BATCH || !last) {
      await this.deps.fanouts.remove(fanout.blog_id, fanout.kind, tx.db);
      return { notices, finished: true };
    }
    await this.deps.fanouts.save({ ...fanout, after_id: last.id, after_time: last.time }, tx.db);
    return { notices, finished: false };
  }

  private recipients(kind: FanoutKind, blogDbId: string, authorId: string, after: Recipient | null, db: Kysely<Database>) {
    return kind === 'published'
      ? this.deps.fanouts.followersAfter(authorId, after, FANOUT_BATCH, db)
      : this.deps.fanouts.reactorsAfter(blogDbId, after?.id ?? null, FANOUT_BATCH, db);
  }

  /** The batch's notices (never to the author, nobody silenced), pushed after commit; answers how many. */
  private tell(kind: FanoutKind, blogDbId: string, authorId: string, batch: Recipient[], tx: Tx): Promise<number> {
    const { type, message } = NOTICES[kind];
    return this.deps.notify.notify(
      batch.map((r) => ({ recipientId: r.id, senderId: authorId, type, blogId: blogDbId, message })),
      tx,
    );
  }
}
