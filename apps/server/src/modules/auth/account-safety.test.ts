import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, latestMailLink, type TestApp, uniqueEmail } from '../../../test/helpers';
import { newId, nowIso } from '../../db/ids';
import { newUserRow } from '../users/users.repo';

/** Issue 11, "Accounts": pre-hijack, dead links, who is registered, common passwords, lockout. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const signup = (payload: Record<string, unknown>, app = t) => app.app.inject({ method: 'POST', url: '/api/v1/signup', payload });
const signin = (payload: Record<string, unknown>, remoteAddress = '127.0.0.1', app = t) =>
  app.app.inject({ method: 'POST', url: '/api/v1/signin', payload, remoteAddress });
const open = (link: string) => t.app.inject({ url: `/api/v1/verify-email/${link.split('/').pop()}` });
const mailsTo = (email: string) =>
  t.database.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', email).orderBy('created_at').orderBy('id').execute();

describe('a sign-up never changes what someone else may activate', () => {
  it("the owner's first link activates the owner's password, whatever a stranger signed up with later", async () => {
    const email = uniqueEmail('owner');
    await signup({ name: 'Owner', email, password: 'owner-pass-one' });
    const ownersLink = await latestMailLink(t.database, email);
    const stranger = await signup({ name: 'Stranger', email, password: 'stranger-pass-two' });
    expect(stranger.statusCode).toBe(201);

    expect((await open(ownersLink)).json().message).toBe('Email verified successfully. You can now sign in.');
    const mine = await signin({ email, password: 'owner-pass-one' });
    expect(mine.statusCode).toBe(200);
    expect(mine.json().user.name).toBe('Owner');
    expect((await signin({ email, password: 'stranger-pass-two' })).statusCode).toBe(401);
  });

  it("the stranger's pending sign-up is discarded: its link changes nothing once the owner verified", async () => {
    const email = uniqueEmail('owner');
    await signup({ name: 'Stranger', email, password: 'stranger-pass-two' });
    const strangersLink = await latestMailLink(t.database, email);
    await signup({ name: 'Owner', email, password: 'owner-pass-one' });
    const ownersLink = await latestMailLink(t.database, email);

    expect((await open(ownersLink)).statusCode).toBe(200);
    const late = await open(strangersLink);
    expect(late.statusCode).toBe(200);
    expect(late.json().message).toBe('Your email is already verified. Please sign in.');
    expect((await signin({ email, password: 'owner-pass-one' })).json().user.name).toBe('Owner');
    expect((await signin({ email, password: 'stranger-pass-two' })).statusCode).toBe(401);
  });

  it('each mail says when its sign-up was made; a re-sent link keeps that time and that sign-up', async () => {
    const email = uniqueEmail('when');
    await signup({ name: 'First', email, password: 'first-pass-one' });
    await signup({ name: 'Second', email, password: 'second-pass-two' });
    const [first, second] = await t.database.db
      .selectFrom('email_verifications')
      .innerJoin('users', 'users.id', 'email_verifications.user_id')
      .select(['email_verifications.signed_up_at', 'email_verifications.signup_id'])
      .where('users.email', '=', email)
      .orderBy('email_verifications.created_at')
      .orderBy('email_verifications.id')
      .execute();
    expect(first!.signup_id).not.toBe(second!.signup_id);
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(2);
    for (const mail of mails) expect(mail.text_body).toMatch(/sign-up made on \w+, \d{1,2} \w+ \d{4} at \d{2}:\d{2} UTC/);

    // Signing in with the first password re-sends the first sign-up's link, dated as the first one.
    expect((await signin({ email, password: 'first-pass-one' })).statusCode).toBe(403);
    const resent = await latestMailLink(t.database, email);
    const all = await mailsTo(email);
    expect(all).toHaveLength(3);
    expect(all[2]!.text_body.match(/sign-up made on [^;]+/)?.[0]).toBe(all[0]!.text_body.match(/sign-up made on [^;]+/)?.[0]);
    expect((await open(resent)).statusCode).toBe(200);
    expect((await signin({ email, password: 'first-pass-one' })).json().user.name).toBe('First');
    expect((await signin({ email, password: 'second-pass-two' })).statusCode).toBe(401);
  });
});

describe('sign-up does not tell who is registered', () => {
  it('answers a registered address exactly like a new one and mails the owner instead', async () => {
    const owner = await createUser(t, { name: 'Registered' });
    const fresh = await signup({ name: 'Fresh', email: uniqueEmail('fresh'), password: 'quill-and-ink-42' });
    const taken = await signup({ name: 'Intruder', email: owner.email, password: 'intruder-pass-9' });
    expect(taken.statusCode).toBe(fresh.statusCode);
    expect(taken.json()).toEqual(fresh.json());

    const mail = (await mailsTo(owner.email)).pop()!;
    expect(mail.subject).toBe('Someone tried to sign up with your email address');
    expect(mail.text_body).toMatch(/sign in, or reset your password/);
    expect(mail.text_body).toContain('http://localhost:3000/forgot-password');
    // Nothing about the account changed.
    expect((await signin({ email: owner.email, password: owner.password })).json().user.name).toBe('Registered');
    expect((await signin({ email: owner.email, password: 'intruder-pass-9' })).statusCode).toBe(401);
  });

  it('tells the owner of a Google-only account that they sign in with Google', async () => {
    const email = uniqueEmail('google');
    const fields = { id: newId(), email, name: 'G User', username: `g${Date.now()}`, password_hash: null, google_auth: 1 as const };
    await t.app.services.repos.users.insert(newUserRow({ ...fields, google_sub: `sub-${email}`, email_verified: 1 }, nowIso()));
    expect((await signup({ name: 'X', email, password: 'quill-and-ink-42' })).statusCode).toBe(201);
    expect((await mailsTo(email)).pop()!.text_body).toMatch(/You sign in with Google/);
  });
});

describe('passwords', () => {
  it.each(['password1', 'Password1', 'qwerty123', 'iloveyou'])('refuses the common password %s with a clear message', async (password) => {
    const email = uniqueEmail('common');
    const res = await signup({ name: 'C', email, password });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('This password is one of the most common passwords and easy to guess. Please choose another one.');
    expect(await t.app.services.repos.users.findByEmail(email)).toBeUndefined();
  });

  it('refuses a common new password when changing it', async () => {
    const u = await createUser(t);
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/change-password',
      headers: { authorization: `Bearer ${u.token}` },
      payload: { currentPassword: u.password, newPassword: 'letmein123' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/most common passwords/);
    expect((await signin({ email: u.email, password: u.password })).statusCode).toBe(200);
  });

  it('keeps the minimum of 6 and allows at most 128 characters', async () => {
    const long = await signup({ name: 'L', email: uniqueEmail(), password: 'x'.repeat(129) });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe('Password must be at most 128 characters');
    expect((await signup({ name: 'L', email: uniqueEmail(), password: 'y'.repeat(128) })).statusCode).toBe(201);
    expect((await signup({ name: 'S', email: uniqueEmail(), password: 'ab3d5' })).json().message).toBe(
      'Password must be at least 6 characters',
    );
  });
});

describe('sign-in lockout', () => {
  it("a stranger's wrong passwords lock their own IP, not the owner's", async () => {
    const limited = await createTestApp({ rateLimitFactor: 1 });
    try {
      const owner = await createUser(limited);
      const codes: number[] = [];
      for (let i = 0; i < 11; i++)
        codes.push((await signin({ email: owner.email, password: 'not-the-password' }, '203.0.113.7', limited)).statusCode);
      expect(codes.slice(0, 10).every((c) => c === 401)).toBe(true);
      expect(codes[10]).toBe(429);
      // The owner, from their own address, is not locked out.
      expect((await signin({ email: owner.email, password: owner.password }, '198.51.100.20', limited)).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('keeps a looser per-address limit against guesses spread over many IPs', async () => {
    const limited = await createTestApp({ rateLimitFactor: 1 });
    try {
      const email = uniqueEmail('spread');
      const codes: number[] = [];
      for (let ip = 1; ip <= 7; ip++) {
        for (let i = 0; i < 9; i++) codes.push((await signin({ email, password: 'guess-number-x' }, `192.0.2.${ip}`, limited)).statusCode);
      }
      expect(codes.slice(0, 60).every((c) => c === 401)).toBe(true);
      expect(codes.slice(60).every((c) => c === 429)).toBe(true);
    } finally {
      await limited.close();
    }
  });
});
