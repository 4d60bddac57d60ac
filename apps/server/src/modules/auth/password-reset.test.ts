import { createHash } from 'node:crypto';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createUser, latestMailLink, type TestApp, uniqueEmail } from '../../../test/helpers';
import { newId, nowIso } from '../../db/ids';
import { newUserRow } from '../users/users.repo';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const forgot = (email: string, remoteAddress = '127.0.0.1', app = t) =>
  app.app.inject({ method: 'POST', url: '/api/v1/forgot-password', payload: { email }, remoteAddress });
const reset = (payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/api/v1/reset-password', payload });
const signin = (email: string, password: string) => t.app.inject({ method: 'POST', url: '/api/v1/signin', payload: { email, password } });
const mailsTo = (email: string) =>
  t.database.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', email).orderBy('created_at').orderBy('id').execute();
const tokenOf = (link: string) => link.split('/').pop()!;

describe('POST /api/v1/forgot-password', () => {
  it('answers the same whether or not the address has an account, and mails a 1-hour link only to an owner', async () => {
    const u = await createUser(t);
    const known = await forgot(u.email);
    const ghost = uniqueEmail('ghost');
    const unknown = await forgot(ghost);
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    expect(known.json().message).toMatch(/If an account exists for this email/);
    expect(await mailsTo(ghost)).toEqual([]);

    const mail = (await mailsTo(u.email)).pop()!;
    expect(mail.subject).toBe('Reset your password');
    const link = await latestMailLink(t.database, u.email);
    expect(link).toMatch(/^http:\/\/localhost:3000\/reset-password\/[A-Za-z0-9_-]{43}$/);
    // 256 random bits, only a SHA-256 stored, valid for one hour.
    const row = await t.database.db.selectFrom('password_resets').selectAll().where('user_id', '=', u.id).executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(createHash('sha256').update(tokenOf(link)).digest('hex'));
    const ttl = Date.parse(row.expires_at) - Date.parse(row.created_at);
    expect(ttl).toBeGreaterThan(3590_000);
    expect(ttl).toBeLessThanOrEqual(3600_000);
  });

  it('tells a Google-only account that it signs in with Google, and makes no reset link', async () => {
    const email = uniqueEmail('google');
    const id = newId();
    const fields = { id, email, name: 'G', username: `g${Date.now()}`, password_hash: null, google_auth: 1 as const };
    await t.app.services.repos.users.insert(newUserRow({ ...fields, google_sub: `sub-${email}`, email_verified: 1 }, nowIso()));
    expect((await forgot(email)).statusCode).toBe(200);
    const mail = (await mailsTo(email)).pop()!;
    expect(mail.subject).toBe('You sign in with Google');
    expect(await t.database.db.selectFrom('password_resets').selectAll().where('user_id', '=', id).execute()).toEqual([]);
  });

  it('limits requests per address and per IP, known or not', async () => {
    const limited = await createTestApp({ rateLimitFactor: 1 });
    try {
      const ghost = uniqueEmail('ghost');
      const perAddress = [];
      for (let i = 0; i < 4; i++) perAddress.push((await forgot(ghost, `10.0.0.${i}`, limited)).statusCode);
      expect(perAddress).toEqual([200, 200, 200, 429]);
      const perIp = [];
      for (let i = 0; i < 21; i++) perIp.push((await forgot(uniqueEmail('ip'), '10.9.9.9', limited)).statusCode);
      expect(perIp.slice(0, 20).every((c) => c === 200)).toBe(true);
      expect(perIp[20]).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe('POST /api/v1/reset-password', () => {
  it('sets the new password once, and revokes every session and open socket', async () => {
    const u = await createUser(t);
    const second = (await signin(u.email, u.password)).json().user.token;
    const url = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const socket = connect(url, { transports: ['websocket'], auth: { token: u.token }, reconnection: false, forceNew: true });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    expect(await socket.timeout(5000).emitWithAck('register', u.id)).toEqual({ ok: true });
    const dropped = new Promise((resolve) => socket.once('disconnect', resolve));

    await forgot(u.email);
    const token = tokenOf(await latestMailLink(t.database, u.email));
    const res = await reset({ token, password: 'a-fresh-start-77' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Your password has been reset. Please sign in with your new password.' });
    await dropped;
    socket.close();
    for (const old of [u.token, second]) expect((await t.app.inject({ url: '/api/v1/me', headers: bearer(old) })).statusCode).toBe(401);
    expect((await signin(u.email, u.password)).statusCode).toBe(401);
    expect((await signin(u.email, 'a-fresh-start-77')).statusCode).toBe(200);

    const again = await reset({ token, password: 'another-one-88' });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('This password reset link is invalid or has expired. Please ask for a new one.');
  });

  it('verifies the address of an unverified account and ends its pending sign-up links', async () => {
    const email = uniqueEmail('lost');
    await t.app.inject({ method: 'POST', url: '/api/v1/signup', payload: { name: 'Lost', email, password: 'forgotten-pass-1' } });
    const verifyLink = await latestMailLink(t.database, email);
    await forgot(email);
    expect((await reset({ token: tokenOf(await latestMailLink(t.database, email)), password: 'found-again-22' })).statusCode).toBe(200);
    expect((await signin(email, 'found-again-22')).statusCode).toBe(200);
    const late = await t.app.inject({ url: `/api/v1/verify-email/${tokenOf(verifyLink)}` });
    expect(late.json().message).toBe('Your email is already verified. Please sign in.');
    expect((await signin(email, 'forgotten-pass-1')).statusCode).toBe(401);
  });

  it('one used link ends the other open ones of the account', async () => {
    const u = await createUser(t);
    await forgot(u.email);
    const first = tokenOf(await latestMailLink(t.database, u.email));
    await forgot(u.email);
    const second = tokenOf(await latestMailLink(t.database, u.email));
    expect((await reset({ token: second, password: 'second-link-pass' })).statusCode).toBe(200);
    expect((await reset({ token: first, password: 'first-link-pass' })).statusCode).toBe(400);
  });

  it('a changed password ends the reset links mailed before it', async () => {
    const u = await createUser(t);
    await forgot(u.email);
    const link = tokenOf(await latestMailLink(t.database, u.email));
    const changed = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/change-password',
      headers: bearer(u.token),
      payload: { currentPassword: u.password, newPassword: 'changed-after-a-scare' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await reset({ token: link, password: 'attacker-chosen-pass' })).statusCode).toBe(400);
    expect((await signin(u.email, 'changed-after-a-scare')).statusCode).toBe(200);
  });

  it('refuses unknown, expired and common-password resets with a clear 400 and changes nothing', async () => {
    const u = await createUser(t);
    expect((await reset({ token: 'not-a-real-token', password: 'whatever-it-is' })).statusCode).toBe(400);
    expect((await reset({ token: '', password: 'whatever-it-is' })).json().message).toBe('The reset link is missing its token');

    await forgot(u.email);
    const token = tokenOf(await latestMailLink(t.database, u.email));
    const common = await reset({ token, password: 'password1' });
    expect(common.statusCode).toBe(400);
    expect(common.json().message).toMatch(/most common passwords/);
    const short = await reset({ token, password: 'abc' });
    expect(short.json().message).toBe('Password must be at least 6 characters');

    await t.database.db
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', u.id)
      .execute();
    const expired = await reset({ token, password: 'too-late-for-this' });
    expect(expired.statusCode).toBe(400);
    expect(expired.json().message).toMatch(/invalid or has expired/);
    expect((await signin(u.email, u.password)).statusCode).toBe(200);
  });
});
