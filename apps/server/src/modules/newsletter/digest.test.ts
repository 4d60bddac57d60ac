import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../../test/blogs';
import { bearer, createTestApp, createUser, ownConnectionInstance, type TestApp, type TestUser, uniqueEmail } from '../../../test/helpers';
import { type CapturedMail, startSmtpServer, waitFor } from '../../../test/smtp';
import type { JobRun } from '../../jobs/scheduler';
import { DigestRepository } from './digest.repo';
import { DigestService, lastDay, lastWeek } from './digest.service';

const DAY = 86400_000;
const WEEKLY_SUBJECT = /^Subject: This week on Inkwell/m;

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let t: TestApp;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({ smtpUrl: smtp.url });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const api = (app: TestApp, method: 'POST' | 'PUT' | 'PATCH', url: string, payload?: unknown, user?: TestUser) =>
  app.app.inject({ method, url: `/api/v1${url}`, payload: payload as never, headers: user ? bearer(user.token) : {} });

/** Subscribes through the API and opens the mailed link (from the outbox, as a reader's mailbox would show it). */
async function subscribe(email: string, confirm: boolean) {
  await api(t, 'POST', '/newsletter/subscribe', { email });
  const row = await t.database.db.selectFrom('mail_outbox').select('text_body').where('to_address', '=', email).executeTakeFirstOrThrow();
  const token = row.text_body.match(/\/newsletter\/confirm\/([A-Za-z0-9_-]+)/)![1]!;
  if (confirm) expect((await api(t, 'POST', '/newsletter/confirm', { token })).statusCode).toBe(200);
  return t.database.db.selectFrom('newsletter_subscribers').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
}

/** Delivers everything in the outbox to the SMTP server. */
async function deliverAll(app: TestApp) {
  await waitFor(
    async () => ((await app.app.services.mail.drain()) === 0 && (await app.app.services.mail.pendingCount()) === 0) || undefined,
  );
}

/** Header lines unfolded (a long header continues on lines starting with a space). */
const unfold = (m: CapturedMail) => ({ ...m, raw: m.raw.replace(/\r?\n[ \t]+/g, ' '), text: m.text.replace(/\r?\n[ \t]+/g, ' ') });
const received = (email: string, subject: RegExp): CapturedMail[] =>
  smtp.mails.map(unfold).filter((m) => m.to.includes(email) && subject.test(m.text));

/** A digest job on a fixed clock and a small batch, as the scheduler runs it. */
function digestJob(app: TestApp, now: Date, mail: ConstructorParameters<typeof DigestService>[0]['mail'] = app.app.services.mail): JobRun {
  const digests = new DigestService({
    db: app.database.db,
    digests: new DigestRepository(app.database.db),
    mail,
    publicUrl: 'http://localhost:3000',
    batchSize: 2,
  });
  return (ctx) => digests.run(ctx, now);
}

describe('digest periods', () => {
  it('covers the last whole UTC week (Monday to Monday) and the last UTC day', () => {
    const tuesday = new Date('2026-11-24T22:30:00Z');
    expect(lastWeek(tuesday)).toEqual({ key: 'W2026-11-16', from: '2026-11-16T00:00:00.000Z', to: '2026-11-23T00:00:00.000Z' });
    expect(lastWeek(new Date('2026-11-23T00:00:00Z')).key).toBe('W2026-11-16');
    expect(lastWeek(new Date('2026-11-22T23:59:59Z')).key).toBe('W2026-11-09');
    expect(lastDay(tuesday)).toEqual({ key: 'D2026-11-23', from: '2026-11-23T00:00:00.000Z', to: '2026-11-24T00:00:00.000Z' });
  });
});

describe('weekly newsletter digest over real SMTP', () => {
  it('sends each confirmed subscriber exactly one digest across a crash and a restart of the sender', async () => {
    const author = await createUser(t, { name: 'Ada Writer' });
    const liker = await createUser(t);
    const popular = await createBlog(t, author, { title: 'The most liked post' });
    await createBlog(t, author, { title: 'A quieter post' });
    expect((await api(t, 'POST', `/blogs/like/${popular.blogId}`, undefined, liker)).json()).toMatchObject({ liked: true });

    const confirmed = [];
    for (let i = 0; i < 5; i++) confirmed.push(await subscribe(uniqueEmail('digest'), true));
    const unconfirmed = await subscribe(uniqueEmail('unconfirmed'), false);
    const leaving = await subscribe(uniqueEmail('leaving'), true);
    const oneClick = await api(t, 'POST', `/newsletter/unsubscribe/${leaving.unsubscribe_token}`);
    expect(oneClick.statusCode).toBe(200);

    // Next week: this week's posts are 'last week' then, and every subscriber confirmed before it.
    const nextWeek = new Date(Date.now() + 7 * DAY);
    // The first sender crashes in its second batch: queueing its mails fails inside the transaction
    // that already recorded the batch's sends.
    let batches = 0;
    const crashing = {
      enqueueMany: (...args: Parameters<typeof t.app.services.mail.enqueueMany>) => {
        if (++batches === 2) throw new Error('process killed');
        return t.app.services.mail.enqueueMany(...args);
      },
      kick: () => {},
    };
    t.app.services.scheduler.register('digest-crash', 3600_000, digestJob(t, nextWeek, crashing));
    const crashed = await t.app.services.scheduler.runNow('digest-crash');
    expect(crashed).toMatchObject({ ran: true, ok: false });
    // The first batch (two subscribers) committed; the second rolled back whole.
    const sends = await t.database.db.selectFrom('digest_sends').selectAll().where('kind', '=', 'newsletter').execute();
    expect(sends).toHaveLength(2);

    // Restart: another instance (its own connection) runs the sender again, then once more.
    const restarted = await ownConnectionInstance(t);
    try {
      restarted.app.services.scheduler.register('digest', 3600_000, digestJob(restarted, nextWeek));
      expect(await restarted.app.services.scheduler.runNow('digest')).toMatchObject({ ran: true, ok: true, report: { newsletter: 3 } });
      expect(await restarted.app.services.scheduler.runNow('digest')).toMatchObject({ ran: true, ok: true, report: { newsletter: 0 } });
      await deliverAll(restarted);
    } finally {
      await restarted.close();
    }
    await deliverAll(t);

    for (const s of confirmed) {
      const mails = received(s.email, WEEKLY_SUBJECT);
      expect(mails, s.email).toHaveLength(1);
      const mail = mails[0]!;
      expect(mail.text).toContain('Subject: This week on Inkwell: The most liked post');
      expect(mail.text).toContain(`http://localhost:3000/blog/${popular.blogId}`);
      // The most-liked post comes first.
      expect(mail.text.indexOf('The most liked post')).toBeLessThan(mail.text.indexOf('A quieter post'));
      expect(mail.raw).toContain(`List-Unsubscribe: <http://localhost:3000/api/v1/newsletter/unsubscribe/${s.unsubscribe_token}>`);
      expect(mail.raw).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
      expect(mail.text).toContain(`http://localhost:3000/newsletter/unsubscribe/${s.unsubscribe_token}`);
    }
    expect(received(unconfirmed.email, WEEKLY_SUBJECT)).toHaveLength(0);
    expect(received(leaving.email, WEEKLY_SUBJECT)).toHaveLength(0);
    // The unconfirmed address got its confirmation mail and nothing else.
    expect(smtp.mails.filter((m) => m.to.includes(unconfirmed.email))).toHaveLength(1);
  });
});

describe("followed authors' digest", () => {
  it('mails a daily reader the posts of yesterday by the authors they follow, once, and a reader with it off nothing', async () => {
    const author = await createUser(t, { name: 'Grace Author' });
    const daily = await createUser(t);
    const off = await createUser(t);
    for (const reader of [daily, off]) await api(t, 'PATCH', `/follow/${author.id}`, undefined, reader);
    await api(t, 'PUT', '/digest-settings', { frequency: 'daily' }, daily);
    await api(t, 'PUT', '/digest-settings', { frequency: 'weekly' }, off);
    await api(t, 'PUT', '/digest-settings', { frequency: 'off' }, off);
    await createBlog(t, author, { title: 'Fresh from a followed author' });
    await createBlog(t, author, { title: 'A draft nobody sees', draft: true });

    const tomorrow = new Date(Date.now() + DAY);
    t.app.services.scheduler.register('digest-daily', 3600_000, digestJob(t, tomorrow));
    await t.app.services.scheduler.runNow('digest-daily');
    await t.app.services.scheduler.runNow('digest-daily');
    await deliverAll(t);

    const subject = /^Subject: New posts from authors you follow/m;
    const mails = received(daily.email, subject);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('Fresh from a followed author');
    expect(mails[0]!.text).not.toContain('A draft nobody sees');
    expect(mails[0]!.raw).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(received(off.email, subject)).toHaveLength(0);
  });
});

describe("followed authors' digest and the reader's own choices", () => {
  it('leaves out the authors the reader muted, and mails a suspended reader nothing', async () => {
    const kept = await createUser(t, { name: 'Kept Author' });
    const muted = await createUser(t, { name: 'Muted Author' });
    const reader = await createUser(t);
    const suspended = await createUser(t);
    for (const follower of [reader, suspended]) {
      for (const author of [kept, muted]) await api(t, 'PATCH', `/follow/${author.id}`, undefined, follower);
      await api(t, 'PUT', '/digest-settings', { frequency: 'daily' }, follower);
    }
    expect((await api(t, 'POST', `/users/${muted.id}/mute`, undefined, reader)).statusCode).toBe(200);
    await t.app.services.moderation.setSuspended(null, suspended.id, true, 'Spam');
    await createBlog(t, kept, { title: 'A post from the kept author' });
    await createBlog(t, muted, { title: 'A post from the muted author' });

    const tomorrow = new Date(Date.now() + DAY);
    t.app.services.scheduler.register('digest-daily-choices', 3600_000, digestJob(t, tomorrow));
    await t.app.services.scheduler.runNow('digest-daily-choices');
    await deliverAll(t);

    const subject = /^Subject: New posts from authors you follow/m;
    const mails = received(reader.email, subject);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('A post from the kept author');
    expect(mails[0]!.text).not.toContain('A post from the muted author');
    expect(received(suspended.email, subject)).toHaveLength(0);
  });
});
