import { NEWSLETTER_MESSAGES } from '@inkwell/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createUser, type TestApp, uniqueEmail } from '../../../test/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const subscribe = (email: unknown) => t.app.inject({ method: 'POST', url: '/api/v1/newsletter/subscribe', payload: { email } });
const confirm = (token: string) => t.app.inject({ method: 'POST', url: '/api/v1/newsletter/confirm', payload: { token } });
const mailsTo = (to: string) =>
  t.database.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', to).orderBy('created_at').orderBy('id').execute();
const subscriber = (email: string) =>
  t.database.db.selectFrom('newsletter_subscribers').selectAll().where('email', '=', email).executeTakeFirst();

/** The confirmation and unsubscribe tokens of the newest mail to an address. */
async function linksOf(email: string) {
  const mails = await mailsTo(email);
  const text = mails.at(-1)!.text_body;
  return {
    confirm: text.match(/\/newsletter\/confirm\/([A-Za-z0-9_-]+)/)?.[1] ?? '',
    unsubscribe: text.match(/\/newsletter\/unsubscribe\/([A-Za-z0-9_-]+)/)?.[1] ?? '',
  };
}

async function confirmedSubscriber(email = uniqueEmail('reader')) {
  await subscribe(email);
  const links = await linksOf(email);
  expect((await confirm(links.confirm)).statusCode).toBe(200);
  return { email, ...links };
}

describe('subscribing with double opt-in', () => {
  it('stores a pending address and queues only a confirmation mail with unsubscribe headers', async () => {
    const email = uniqueEmail('news');
    const res = await subscribe(`  ${email.toUpperCase()} `);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: NEWSLETTER_MESSAGES.subscribed });
    expect(await subscriber(email)).toMatchObject({ status: 'pending', confirmed_at: null });
    const [mail, ...more] = await mailsTo(email);
    expect(more).toHaveLength(0);
    expect(mail!.subject).toBe('Confirm your subscription to the Inkwell digest');
    expect(mail!.text_body).toMatch(/http:\/\/localhost:3000\/newsletter\/confirm\/[A-Za-z0-9_-]{43}/);
    const headers = JSON.parse(mail!.headers!);
    expect(headers['List-Unsubscribe']).toMatch(/^<http:\/\/localhost:3000\/api\/v1\/newsletter\/unsubscribe\/[A-Za-z0-9_-]{43}>$/);
    expect(headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
  });

  it('answers the same for a new, pending, confirmed and unsubscribed address', async () => {
    const fresh = uniqueEmail('fresh');
    const pending = uniqueEmail('pending');
    await subscribe(pending);
    const confirmed = await confirmedSubscriber();
    const gone = await confirmedSubscriber();
    await t.app.inject({ method: 'POST', url: `/api/v1/newsletter/unsubscribe/${gone.unsubscribe}` });
    const answers = await Promise.all([fresh, pending, confirmed.email, gone.email].map(subscribe));
    for (const res of answers) {
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(answers[0]!.body);
    }
    // A confirmed address gets no mail for it; the others get a new confirmation link.
    expect(await mailsTo(confirmed.email)).toHaveLength(1);
    expect(await mailsTo(pending)).toHaveLength(2);
    expect(await subscriber(gone.email)).toMatchObject({ status: 'pending' });
  });

  it('refuses a missing or malformed address with 400', async () => {
    for (const email of [undefined, '', 'not-an-email', 42]) {
      const res = await subscribe(email);
      expect(res.statusCode).toBe(400);
      expect(res.json().success).toBe(false);
    }
  });

  it('confirms by the link, again without harm, and refuses a wrong or expired one', async () => {
    const email = uniqueEmail('confirm');
    await subscribe(email);
    const { confirm: token } = await linksOf(email);
    expect((await confirm('x'.repeat(43))).statusCode).toBe(400);
    const ok = await confirm(token);
    expect(ok.json()).toEqual({ success: true, message: NEWSLETTER_MESSAGES.confirmed });
    expect(await subscriber(email)).toMatchObject({ status: 'confirmed' });
    expect((await confirm(token)).statusCode).toBe(200);

    const late = uniqueEmail('late');
    await subscribe(late);
    const lateToken = (await linksOf(late)).confirm;
    const eightDaysAgo = new Date(Date.now() - 8 * 86400_000).toISOString();
    await t.database.db.updateTable('newsletter_subscribers').set({ requested_at: eightDaysAgo }).where('email', '=', late).execute();
    const res = await confirm(lateToken);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(NEWSLETTER_MESSAGES.badConfirmLink);
  });

  it('a second request replaces the first link', async () => {
    const email = uniqueEmail('twice');
    await subscribe(email);
    const first = (await linksOf(email)).confirm;
    await subscribe(email);
    const second = (await linksOf(email)).confirm;
    expect(second).not.toBe(first);
    expect((await confirm(first)).statusCode).toBe(400);
    expect((await confirm(second)).statusCode).toBe(200);
  });
});

describe('unsubscribing (RFC 8058)', () => {
  it('unsubscribes on a one-click POST of the List-Unsubscribe form, without confirmation', async () => {
    const { email, unsubscribe } = await confirmedSubscriber();
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/newsletter/unsubscribe/${unsubscribe}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(NEWSLETTER_MESSAGES.unsubscribed);
    expect(await subscriber(email)).toMatchObject({ status: 'unsubscribed' });
    // Again (a mail client retrying): still fine.
    const again = await t.app.inject({ method: 'POST', url: `/api/v1/newsletter/unsubscribe/${unsubscribe}` });
    expect(again.statusCode).toBe(200);
  });

  it('sends a GET of the header address to the page with a button, and changes nothing', async () => {
    const { email, unsubscribe } = await confirmedSubscriber();
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/newsletter/unsubscribe/${unsubscribe}` });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/newsletter/unsubscribe/${unsubscribe}`);
    expect(await subscriber(email)).toMatchObject({ status: 'confirmed' });
  });

  it('answers 404 for an unknown token', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/newsletter/unsubscribe/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, message: NEWSLETTER_MESSAGES.badUnsubscribeLink });
  });
});

describe('digest settings', () => {
  it('is off by default, saves a choice, and refuses other values', async () => {
    const user = await createUser(t);
    const get = () => t.app.inject({ method: 'GET', url: '/api/v1/digest-settings', headers: bearer(user.token) });
    const put = (frequency: unknown) =>
      t.app.inject({ method: 'PUT', url: '/api/v1/digest-settings', headers: bearer(user.token), payload: { frequency } });
    expect((await get()).json()).toEqual({ success: true, frequency: 'off' });
    expect((await put('daily')).json()).toEqual({ success: true, message: NEWSLETTER_MESSAGES.digestSaved, frequency: 'daily' });
    expect((await get()).json().frequency).toBe('daily');
    const token = (await t.database.db.selectFrom('digest_preferences').select('unsubscribe_token').executeTakeFirstOrThrow())
      .unsubscribe_token;
    await put('weekly');
    // The link token stays the same across changes, so older digests' links keep working.
    const row = await t.database.db.selectFrom('digest_preferences').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ frequency: 'weekly', unsubscribe_token: token });
    const bad = await put('hourly');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Digest must be off, daily or weekly');
    // The digest's own unsubscribe link turns it off.
    await t.app.inject({ method: 'POST', url: `/api/v1/newsletter/unsubscribe/${row.unsubscribe_token}` });
    expect((await get()).json().frequency).toBe('off');
  });

  it('needs sign-in', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/digest-settings' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'PUT', url: '/api/v1/digest-settings', payload: { frequency: 'daily' } })).statusCode).toBe(401);
  });

  it('goes with a deleted account, with its digest records and a subscription of its address', async () => {
    const user = await createUser(t);
    await t.app.inject({ method: 'PUT', url: '/api/v1/digest-settings', headers: bearer(user.token), payload: { frequency: 'weekly' } });
    await confirmedSubscriber(user.email);
    await t.database.db
      .insertInto('digest_sends')
      .values({ kind: 'following', recipient_id: user.id, period: 'W2026-11-16', mailed: 1, created_at: new Date().toISOString() })
      .execute();
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/users/${user.id}`,
      headers: bearer(user.token),
      payload: { currentPassword: user.password },
    });
    expect(res.statusCode).toBe(200);
    expect(await t.database.db.selectFrom('digest_preferences').selectAll().where('user_id', '=', user.id).execute()).toHaveLength(0);
    expect(await t.database.db.selectFrom('digest_sends').selectAll().where('recipient_id', '=', user.id).execute()).toHaveLength(0);
    expect(await subscriber(user.email)).toBeUndefined();
  });
});

describe('unconfirmed subscriptions cleanup', () => {
  it('deletes pending sign-ups older than the retention, and nothing else', async () => {
    const old = uniqueEmail('old');
    const recent = uniqueEmail('recent');
    await subscribe(old);
    await subscribe(recent);
    const confirmedOld = await confirmedSubscriber();
    const longAgo = new Date(Date.now() - 8 * 86400_000).toISOString();
    await t.database.db
      .updateTable('newsletter_subscribers')
      .set({ requested_at: longAgo })
      .where('email', 'in', [old, confirmedOld.email])
      .execute();
    // Other tests of this file left an old pending one too: every old pending row goes.
    const oldPending = await t.database.db
      .selectFrom('newsletter_subscribers')
      .select('email')
      .where('status', '=', 'pending')
      .where('requested_at', '<', new Date(Date.now() - 7 * 86400_000).toISOString())
      .execute();
    expect(oldPending.map((r) => r.email)).toContain(old);
    const outcome = await t.app.services.scheduler.runNow('unconfirmed-subscribers');
    expect(outcome).toMatchObject({ ran: true, ok: true, report: { unconfirmedSubscribers: oldPending.length } });
    expect(await subscriber(old)).toBeUndefined();
    expect(await subscriber(recent)).toMatchObject({ status: 'pending' });
    expect(await subscriber(confirmedOld.email)).toMatchObject({ status: 'confirmed' });
  });
});
