import { randomBytes } from 'node:crypto';
import type { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../test/blogs';
import { createTestApp, createUser, type TestApp, type TestUser } from '../../test/helpers';
import { newId } from '../db/ids';
import type { Database } from '../db/schema';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const fromNow = (ms: number) => new Date(Date.now() + ms).toISOString();

let t: TestApp;
let user: TestUser;
let other: TestUser;
const queries: CompiledQuery[] = [];
beforeAll(async () => {
  // Notifications kept 30 days here, not the default 90: the retention is configurable.
  t = await createTestApp(
    {
      retention: {
        unattachedUploadHours: 24,
        sentMailDays: 7,
        readNotificationDays: 30,
        unconfirmedSubscriberDays: 7,
        unverifiedAccountDays: 7,
      },
    },
    undefined,
    (q) => queries.push(q),
  );
  [user, other] = await Promise.all([createUser(t), createUser(t)]);
});
afterAll(async () => t.close());

const run = async (name: string) => {
  const outcome = await t.app.services.scheduler.runNow(name);
  if (!outcome.ran || !outcome.ok) throw new Error(`${name} did not run: ${JSON.stringify(outcome)}`);
  return outcome.report;
};
const ids = async (table: keyof Database, where: (q: any) => any = (q) => q) =>
  ((await where(t.database.db.selectFrom(table).select('id' as never)).execute()) as { id: string }[]).map((r) => r.id).sort();

describe('unattached-uploads', () => {
  it('deletes rows and files of uploads never used by a post after 24 h, keeping linked ones and current avatars', async () => {
    const { storage } = t.app.services;
    const blog = await createBlog(t, user);
    const blogDbId = blog._id;
    async function upload(name: string, fields: { kind?: 'inline' | 'avatar'; blog?: string | null; age: number; owner?: TestUser }) {
      const key = `${fields.kind ?? 'inline'}/2026/01/${name}-${randomBytes(8).toString('hex')}.webp`;
      await storage.put(key, Buffer.from(name), 'image/webp');
      const id = newId();
      await t.database.db
        .insertInto('uploads')
        .values({
          id,
          owner_id: (fields.owner ?? user).id,
          storage_key: key,
          url: storage.publicUrl(key),
          kind: fields.kind ?? 'inline',
          blog_id: fields.blog ?? null,
          width: 1,
          height: 1,
          bytes: name.length,
          created_at: ago(fields.age),
        })
        .execute();
      return { id, key, url: storage.publicUrl(key) };
    }
    const abandoned = await upload('abandoned', { age: 25 * HOUR });
    const oldAvatar = await upload('old-avatar', { kind: 'avatar', age: 30 * DAY, owner: other });
    const fresh = await upload('fresh', { age: 23 * HOUR });
    const inPost = await upload('in-post', { blog: blogDbId, age: 90 * DAY });
    const avatar = await upload('avatar', { kind: 'avatar', age: 90 * DAY, owner: other });
    await t.database.db.updateTable('users').set({ profile_pic: avatar.url }).where('id', '=', other.id).execute();

    expect(await run('unattached-uploads')).toEqual({ uploads: 2, files: 2 });
    const left = await ids('uploads');
    expect(left).toEqual([fresh.id, inPost.id, avatar.id].sort());
    for (const gone of [abandoned, oldAvatar]) expect(await storage.get(gone.key)).toBeNull();
    for (const kept of [fresh, inPost, avatar]) expect(await storage.get(kept.key)).not.toBeNull();

    // Idempotent: a second run finds nothing.
    expect(await run('unattached-uploads')).toEqual({ uploads: 0, files: 0 });
    expect(await ids('uploads')).toEqual(left);
  });
});

describe('expired-tokens', () => {
  it('deletes expired verification, password reset and transfer tokens, used or not, and keeps valid ones', async () => {
    const db = t.database.db;
    const verification = (expiresAt: string, usedAt: string | null = null) => {
      const id = newId();
      return db
        .insertInto('email_verifications')
        .values({
          id,
          user_id: user.id,
          token_hash: randomBytes(16).toString('hex'),
          expires_at: expiresAt,
          used_at: usedAt,
          created_at: ago(2 * DAY),
        })
        .execute()
        .then(() => id);
    };
    const transfer = (expiresAt: string, status: 'pending' | 'accepted') => {
      const id = newId();
      return db
        .insertInto('transfer_requests')
        .values({
          id,
          from_user_id: user.id,
          to_user_id: other.id,
          accept_token_hash: randomBytes(16).toString('hex'),
          reject_token_hash: randomBytes(16).toString('hex'),
          status,
          expires_at: expiresAt,
          created_at: ago(2 * DAY),
          resolved_at: null,
        })
        .execute()
        .then(() => id);
    };
    const reset = (expiresAt: string, usedAt: string | null = null) => {
      const id = newId();
      return db
        .insertInto('password_resets')
        .values({
          id,
          user_id: user.id,
          token_hash: randomBytes(16).toString('hex'),
          expires_at: expiresAt,
          used_at: usedAt,
          created_at: ago(DAY),
        })
        .execute()
        .then(() => id);
    };
    const before = await ids('email_verifications');
    await verification(ago(HOUR));
    await verification(ago(DAY), ago(2 * DAY));
    const valid = await verification(fromNow(HOUR));
    await transfer(ago(1000), 'pending');
    await transfer(ago(DAY), 'accepted');
    const pending = await transfer(fromNow(DAY), 'pending');
    await reset(ago(1000));
    await reset(ago(HOUR), ago(2 * HOUR));
    const openReset = await reset(fromNow(HOUR));

    // The sign-ups in beforeAll left used, still unexpired verification rows: they stay.
    expect(await run('expired-tokens')).toEqual({ emailVerifications: 2, passwordResets: 2, transferRequests: 2 });
    expect(await ids('email_verifications')).toEqual([...before, valid].sort());
    expect(await ids('transfer_requests')).toEqual([pending]);
    expect(await ids('password_resets')).toEqual([openReset]);
    expect(await run('expired-tokens')).toEqual({ emailVerifications: 0, passwordResets: 0, transferRequests: 0 });
  });
});

describe('sent-mail', () => {
  it('deletes mail sent over 7 days ago, in batches of 1,000, and keeps unsent mail however old', async () => {
    const db = t.database.db;
    const mail = (sentAt: string | null, createdAt: string) => ({
      id: newId(),
      to_address: 'someone@example.com',
      subject: 'Hello',
      text_body: 'Hi',
      html_body: null,
      next_attempt_at: createdAt,
      locked_until: null,
      sent_at: sentAt,
      last_error: null,
      created_at: createdAt,
    });
    await db.deleteFrom('mail_outbox').execute();
    const old = Array.from({ length: 2500 }, () => mail(ago(8 * DAY), ago(8 * DAY)));
    for (let i = 0; i < old.length; i += 250)
      await db
        .insertInto('mail_outbox')
        .values(old.slice(i, i + 250))
        .execute();
    const recent = mail(ago(6 * DAY), ago(6 * DAY));
    const unsent = mail(null, ago(60 * DAY));
    await db.insertInto('mail_outbox').values([recent, unsent]).execute();

    queries.length = 0;
    expect(await run('sent-mail')).toEqual({ sentMail: 2500 });
    const deletes = queries.filter((q) => /^delete from "mail_outbox"/i.test(q.sql));
    expect(deletes).toHaveLength(3);
    expect(deletes.every((q) => q.parameters.includes(1000))).toBe(true);
    expect(await ids('mail_outbox')).toEqual([recent.id, unsent.id].sort());
    expect(await run('sent-mail')).toEqual({ sentMail: 0 });
  });
});

describe('read-notifications', () => {
  it('deletes read notifications older than the retention (30 days here) and keeps unread ones', async () => {
    const db = t.database.db;
    const notification = (isRead: 0 | 1, age: number) => ({
      id: newId(),
      recipient_id: user.id,
      sender_id: other.id,
      type: 'like',
      blog_id: null,
      comment_id: null,
      message: null,
      is_read: isRead,
      created_at: ago(age),
    });
    await db.deleteFrom('notifications').execute();
    const oldRead = notification(1, 31 * DAY);
    const oldUnread = notification(0, 200 * DAY);
    const recentRead = notification(1, 29 * DAY);
    await db.insertInto('notifications').values([oldRead, oldUnread, recentRead]).execute();

    expect(await run('read-notifications')).toEqual({ readNotifications: 1 });
    expect(await ids('notifications')).toEqual([oldUnread.id, recentRead.id].sort());
    expect(await run('read-notifications')).toEqual({ readNotifications: 0 });
  });
});

describe('unverified-accounts', () => {
  it('deletes accounts never verified a week after their last sign-up, and frees their address', async () => {
    const db = t.database.db;
    const signup = async (email: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/signup',
        payload: { name: 'Pending', email, password: 'quill-and-ink-42' },
      });
      expect(res.statusCode).toBe(201);
      return (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
    };
    const age = async (userId: string, signedUp: number, lastLink = signedUp) => {
      await db
        .updateTable('users')
        .set({ created_at: ago(signedUp) })
        .where('id', '=', userId)
        .execute();
      await db
        .updateTable('email_verifications')
        .set({ created_at: ago(lastLink), expires_at: ago(lastLink - DAY) })
        .where('user_id', '=', userId)
        .execute();
    };
    const tag = randomBytes(4).toString('hex');
    const forgotten = await signup(`forgotten-${tag}@example.com`);
    await age(forgotten, 8 * DAY);
    const retried = await signup(`retried-${tag}@example.com`); // signed up again yesterday
    await age(retried, 8 * DAY, 1 * DAY);
    const recent = await signup(`recent-${tag}@example.com`);
    await age(recent, 6 * DAY);
    const withPost = await signup(`posted-${tag}@example.com`);
    await age(withPost, 30 * DAY);
    const now = new Date().toISOString();
    await db
      .insertInto('blogs')
      .values({
        ...{
          id: newId(),
          blog_id: `b-${tag}`,
          creator_id: withPost,
          title: 'T',
          description: 'D',
          image: null,
          content: '{}',
          search_text: '',
        },
        ...{ tags: '[]', block_count: 0, draft: 1, like_count: 0, comment_count: 0, save_count: 0, created_at: now, updated_at: now },
      })
      .execute();
    await db
      .updateTable('users')
      .set({ created_at: ago(300 * DAY) })
      .where('id', '=', other.id)
      .execute(); // verified: stays

    expect(await run('unverified-accounts')).toEqual({ unverifiedAccounts: 1 });
    const left = await ids('users', (q) => q.where('id', 'in', [forgotten, retried, recent, withPost, other.id]));
    expect(left).toEqual([retried, recent, withPost, other.id].sort());
    expect(await ids('email_verifications', (q) => q.where('user_id', '=', forgotten))).toEqual([]);
    expect(await run('unverified-accounts')).toEqual({ unverifiedAccounts: 0 });
    // The address can be signed up with again, as a new account.
    expect(await signup(`forgotten-${tag}@example.com`)).not.toBe(forgotten);
  });
});

describe('job reports', () => {
  it('keeps what the last run removed on the lease row', async () => {
    const row = await t.database.db.selectFrom('job_leases').selectAll().where('name', '=', 'read-notifications').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ holder: null, last_result: '{"readNotifications":0}' });
    expect(row.last_finished_at).not.toBeNull();
  });
});
