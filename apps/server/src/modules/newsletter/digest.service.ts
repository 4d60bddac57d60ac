import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { daysAgo } from '../../jobs/batches';
import type { JobContext, JobReport } from '../../jobs/scheduler';
import { transact } from '../../lib/tx';
import type { MailService } from '../../mail/mail.service';
import { digestMail } from '../../mail/newsletter-templates';
import type { DigestKind, DigestPost, DigestRepository, Recipient } from './digest.repo';
import { unsubscribeLinks } from './newsletter.service';

const DAY = 86400_000;
/** Recipients per batch: one transaction records their sends and queues their mails. */
export const DIGEST_BATCH = 100;
const TOP_POSTS = 5;
const FOLLOWED_POSTS = 10;
/** digest_sends rows are needed only while their period can still be sent. */
const SENDS_KEPT_DAYS = 35;

export interface DigestDeps {
  db: Kysely<Database>;
  digests: DigestRepository;
  mail: Pick<MailService, 'enqueueMany' | 'kick'>;
  publicUrl: string;
  batchSize?: number;
}

/** A period a digest covers: [from, to), and its key in digest_sends. */
export interface Period {
  key: string;
  from: string;
  to: string;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The UTC day before `now`. */
export function lastDay(now: Date): Period {
  const to = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return { key: `D${day(to - DAY)}`, from: new Date(to - DAY).toISOString(), to: new Date(to).toISOString() };
}

/** The last whole week (Monday 00:00 to Monday 00:00 UTC) before `now`. */
export function lastWeek(now: Date): Period {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const to = today - ((now.getUTCDay() + 6) % 7) * DAY;
  return { key: `W${day(to - 7 * DAY)}`, from: new Date(to - 7 * DAY).toISOString(), to: new Date(to).toISOString() };
}

interface Plan {
  kind: DigestKind;
  period: Period;
  /** Recipients after `after`, none of whom has this period's digest yet. */
  recipients(after: string, limit: number): Promise<Recipient[]>;
  /** The posts for one recipient; an empty list records the period without a mail. */
  posts(recipient: Recipient): Promise<DigestPost[]>;
  mail(recipient: Recipient, posts: DigestPost[]): ReturnType<typeof digestMail>;
}

/**
 * Sends the weekly newsletter and readers' followed-authors digests (the scheduler runs it on one
 * instance at a time). Each batch is one transaction that writes a digest_sends row per recipient
 * and period together with the outbox mail; the row's key skips anyone already done, so a run
 * stopped or crashed mid-way is resumed by the next one without sending anybody a digest twice.
 */
export class DigestService {
  constructor(private readonly deps: DigestDeps) {}

  async run(ctx: JobContext, now = new Date()): Promise<JobReport> {
    const report: JobReport = {};
    for (const plan of this.plans(now)) {
      const name = plan.kind === 'newsletter' ? 'newsletter' : `following${plan.period.key.startsWith('D') ? 'Daily' : 'Weekly'}`;
      const sent = await this.send(ctx, plan);
      if (sent < 0) return report;
      report[name] = sent;
    }
    report.oldSends = await this.deps.digests.deleteSendsBefore(daysAgo(SENDS_KEPT_DAYS), 1000);
    return report;
  }

  private plans(now: Date): Plan[] {
    const { digests, publicUrl } = this.deps;
    const week = lastWeek(now);
    const yesterday = lastDay(now);
    const postUrl = (blogId: string) => `${publicUrl}/blog/${encodeURIComponent(blogId)}`;
    const links = (r: Recipient) => unsubscribeLinks(publicUrl, r.unsubscribe_token);
    // Everyone gets the same top posts of the week: read once per run.
    let top: Promise<DigestPost[]> | undefined;
    const newsletter: Plan = {
      kind: 'newsletter',
      period: week,
      recipients: (after, limit) => digests.subscribersToSend(week.key, week.to, after, limit),
      posts: () => {
        top ??= digests.topPosts(week.from, week.to, TOP_POSTS);
        return top;
      },
      mail: (r, posts) =>
        digestMail({
          to: r.email,
          subject: `This week on Inkwell: ${posts[0]?.title ?? ''}`,
          heading: "The week's most-liked posts",
          intro: `The most-liked posts published on Inkwell from ${week.from.slice(0, 10)} to ${day(Date.parse(week.to) - DAY)}.`,
          posts,
          postUrl,
          links: links(r),
          reason: 'You get this because you subscribed to the Inkwell digest.',
        }),
    };
    const following = (frequency: 'daily' | 'weekly', period: Period): Plan => ({
      kind: 'following',
      period,
      recipients: (after, limit) => digests.readersToSend(frequency, period.key, period.to, after, limit),
      posts: (r) => digests.followedPosts(r.id, period.from, period.to, FOLLOWED_POSTS),
      mail: (r, posts) =>
        digestMail({
          to: r.email,
          subject: `New posts from authors you follow (${posts.length})`,
          heading: frequency === 'daily' ? "Yesterday's posts from authors you follow" : "This week's posts from authors you follow",
          intro: `New posts published from ${period.from.slice(0, 10)} to ${day(Date.parse(period.to) - DAY)} by the authors you follow.`,
          posts,
          postUrl,
          links: links(r),
          reason: `You get this because you chose a ${frequency} digest in your Inkwell settings.`,
        }),
    });
    return [newsletter, following('weekly', week), following('daily', yesterday)];
  }

  /** Mails one plan in batches; returns how many mails were queued, or -1 when told to stop. */
  private async send(ctx: JobContext, plan: Plan): Promise<number> {
    const { db, digests, mail } = this.deps;
    const size = this.deps.batchSize ?? DIGEST_BATCH;
    // Below every UUID, on both engines (PostgreSQL compares uuid columns only with uuids).
    let after = '00000000-0000-0000-0000-000000000000';
    let queued = 0;
    for (;;) {
      const batch = await plan.recipients(after, size);
      if (!batch.length) return queued;
      const prepared = await Promise.all(batch.map(async (r) => ({ r, posts: await plan.posts(r) })));
      queued += await transact(db, async ({ db: trx }) => {
        const sends = prepared.map(({ r, posts }) => ({ id: r.id, mailed: posts.length > 0 }));
        const recorded = await digests.recordSends(plan.kind, plan.period.key, sends, trx);
        const mails = prepared.filter(({ r, posts }) => recorded.has(r.id) && posts.length).map(({ r, posts }) => plan.mail(r, posts));
        await mail.enqueueMany(mails, trx);
        return mails.length;
      });
      mail.kick();
      after = batch[batch.length - 1]!.id;
      if (batch.length < size) return queued;
      if (!(await ctx.keepGoing())) return -1;
    }
  }
}
