import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createUser, latestMailLink, type TestApp, uniqueEmail } from '../../../test/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const signup = (payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/api/v1/signup', payload });
const signin = (payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/api/v1/signin', payload });
const countUsers = async (email: string) =>
  Number(
    (
      await t.database.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('email', '=', email)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('POST /api/v1/signup', () => {
  it.each([
    [{ email: 'a@example.com', password: 'quill-and-ink-42' }, /name/i],
    [{ name: 'A', password: 'quill-and-ink-42' }, /email/i],
    [{ name: 'A', email: 'not-an-email', password: 'quill-and-ink-42' }, /valid email/i],
    [{ name: 'A', email: 'b@example.com', password: '12345' }, /at least 6/i],
    [{ name: '   ', email: 'c@example.com', password: 'quill-and-ink-42' }, /name/i],
  ] as [Record<string, string>, RegExp][])('refuses %j with a message naming the field', async (payload, message) => {
    const res = await signup(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, message: expect.stringMatching(message) });
    if (payload.email) expect(await countUsers(payload.email.toLowerCase())).toBe(0);
  });

  it('creates an unverified account with a username from the e-mail and mails a verification link', async () => {
    const email = `Jane.Doe+blog${Date.now()}@Example.com`;
    const res = await signup({ name: 'Jane Doe', email, password: 'quill-and-ink-42' });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toMatch(/verify/i);
    const user = await t.app.services.repos.users.findByEmail(email.toLowerCase());
    expect(user).toMatchObject({ name: 'Jane Doe', email_verified: 0, google_auth: 0 });
    expect(user?.username).toMatch(/^janedoe/);
    expect(user?.password_hash).toMatch(/^\$argon2id\$/);
    const link = await latestMailLink(t.database, email.toLowerCase());
    expect(link).toMatch(/^http:\/\/localhost:3000\/verify-email\/[A-Za-z0-9_-]{43}$/);
  });

  it('gives two addresses with the same local part different usernames', async () => {
    const a = await createUser(t, { email: `samename@${Date.now()}a.example.com` });
    const b = await createUser(t, { email: `samename@${Date.now()}b.example.com` });
    expect(a.username).toBe('samename');
    expect(b.username).toMatch(/^samename\d+$/);
  });

  it('answers a second sign-up like the first and keeps every link working until one is used', async () => {
    const email = uniqueEmail();
    const first = await signup({ name: 'First', email, password: 'first-pass-1' });
    const firstLink = await latestMailLink(t.database, email);
    const again = await signup({ name: 'Second', email, password: 'second-pass-2' });
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    const secondLink = await latestMailLink(t.database, email);
    expect(secondLink).not.toBe(firstLink);
    expect(await countUsers(email)).toBe(1);
    // The second link activates the second sign-up; the first one then says the address is verified.
    expect((await t.app.inject({ url: `/api/v1/verify-email/${secondLink.split('/').pop()}` })).statusCode).toBe(200);
    const stale = await t.app.inject({ url: `/api/v1/verify-email/${firstLink.split('/').pop()}` });
    expect(stale.statusCode).toBe(200);
    expect(stale.json().message).toBe('Your email is already verified. Please sign in.');
    expect((await signin({ email, password: 'second-pass-2' })).statusCode).toBe(200);
    expect((await signin({ email, password: 'first-pass-1' })).statusCode).toBe(401);
  });

  it('creates exactly one account when the same address signs up many times at once', async () => {
    const email = uniqueEmail('race');
    const results = await Promise.all(Array.from({ length: 8 }, () => signup({ name: 'Race', email, password: 'quill-and-ink-42' })));
    for (const r of results) expect(r.statusCode).toBe(201);
    expect(await countUsers(email)).toBe(1);
  });
});

describe('GET /api/v1/verify-email/:token', () => {
  it('verifies once; then the link says so; an unknown or expired token gets a clear 400', async () => {
    const email = uniqueEmail();
    await signup({ name: 'V', email, password: 'quill-and-ink-42' });
    const token = (await latestMailLink(t.database, email)).split('/').pop();
    const ok = await t.app.inject({ url: `/api/v1/verify-email/${token}` });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ success: true, message: 'Email verified successfully. You can now sign in.' });
    const reused = await t.app.inject({ url: `/api/v1/verify-email/${token}` });
    expect(reused.statusCode).toBe(200);
    expect(reused.json()).toEqual({ success: true, message: 'Your email is already verified. Please sign in.' });
    const unknown = await t.app.inject({ url: '/api/v1/verify-email/not-a-real-token' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('This verification link is invalid or has expired.');

    const late = uniqueEmail();
    await signup({ name: 'Late', email: late, password: 'quill-and-ink-42' });
    const lateToken = (await latestMailLink(t.database, late)).split('/').pop();
    await t.database.db
      .updateTable('email_verifications')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    const expired = await t.app.inject({ url: `/api/v1/verify-email/${lateToken}` });
    expect(expired.statusCode).toBe(400);
    expect((await t.app.services.repos.users.findByEmail(late))?.email_verified).toBe(0);
  });
});

describe('POST /api/v1/signin', () => {
  it('returns the session user of SPEC section 3 with a working token', async () => {
    const u = await createUser(t, { name: 'Sam Signin' });
    const res = await signin({ email: u.email.toUpperCase(), password: u.password });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.message).toBe('Signed in successfully');
    expect(body.user).toEqual({
      token: expect.any(String),
      id: u.id,
      _id: u.id,
      email: u.email,
      name: 'Sam Signin',
      username: u.username,
      profilePic: null,
      bio: null,
      followers: [],
      following: [],
      showLikedBlogs: false,
      showSavedBlogs: false,
      googleAuth: false,
      role: 'user',
    });
    const me = await t.app.inject({ url: '/api/v1/me', headers: bearer(body.user.token) });
    expect(me.statusCode).toBe(200);
    expect(me.json().user.id).toBe(u.id);
  });

  it('gives the same answer for a wrong password and an unknown e-mail', async () => {
    const u = await createUser(t);
    const wrong = await signin({ email: u.email, password: 'wrong-password' });
    const unknown = await signin({ email: uniqueEmail('ghost'), password: 'whatever1' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().message).toBe('Invalid email or password');
  });

  it('refuses an unverified account and mails a new link; the first link still works', async () => {
    const email = uniqueEmail();
    await signup({ name: 'U', email, password: 'quill-and-ink-42' });
    const first = await latestMailLink(t.database, email);
    const res = await signin({ email, password: 'quill-and-ink-42' });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/verify your email/);
    const second = await latestMailLink(t.database, email);
    expect(second).not.toBe(first);
    // Most people open the first mail: it works, and the newer link then says the address is verified.
    const opened = await t.app.inject({ url: `/api/v1/verify-email/${first.split('/').pop()}` });
    expect(opened.json()).toEqual({ success: true, message: 'Email verified successfully. You can now sign in.' });
    const later = await t.app.inject({ url: `/api/v1/verify-email/${second.split('/').pop()}` });
    expect(later.statusCode).toBe(200);
    expect(later.json().message).toBe('Your email is already verified. Please sign in.');
    expect((await signin({ email, password: 'quill-and-ink-42' })).statusCode).toBe(200);
  });
});

describe('tokens', () => {
  it('refuses missing, malformed and tampered tokens', async () => {
    const u = await createUser(t);
    expect((await t.app.inject({ url: '/api/v1/me' })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/v1/me', headers: bearer('nonsense') })).statusCode).toBe(401);
    const [h, p, s] = u.token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p!, 'base64url').toString()), sub: 'someone-else' })).toString(
      'base64url',
    );
    const res = await t.app.inject({ url: '/api/v1/me', headers: bearer(`${h}.${forged}.${s}`) });
    expect(res.statusCode).toBe(401);
    expect(res.json().success).toBe(false);
  });

  it('revokes every older token on sign-out everywhere', async () => {
    const u = await createUser(t);
    const second = (await signin({ email: u.email, password: u.password })).json().user.token;
    const out = await t.app.inject({ method: 'POST', url: '/api/v1/signout-everywhere', headers: bearer(u.token) });
    expect(out.statusCode).toBe(200);
    for (const token of [u.token, second]) {
      expect((await t.app.inject({ url: '/api/v1/me', headers: bearer(token) })).statusCode).toBe(401);
    }
    const fresh = (await signin({ email: u.email, password: u.password })).json().user.token;
    expect((await t.app.inject({ url: '/api/v1/me', headers: bearer(fresh) })).statusCode).toBe(200);
  });
});

describe('rate limits', () => {
  it('answers 429 with Retry-After after too many sign-ins for one address', async () => {
    const limited = await createTestApp({ rateLimitFactor: 1 });
    try {
      const email = uniqueEmail();
      const codes: number[] = [];
      let last: Awaited<ReturnType<typeof limited.app.inject>> | undefined;
      for (let i = 0; i < 11; i++) {
        last = await limited.app.inject({ method: 'POST', url: '/api/v1/signin', payload: { email, password: 'wrong-pass' } });
        codes.push(last.statusCode);
      }
      expect(codes.slice(0, 10).every((c) => c === 401)).toBe(true);
      expect(last!.statusCode).toBe(429);
      expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
      expect(last!.json().message).toMatch(/Too many attempts/);
    } finally {
      await limited.close();
    }
  });

  it('limits sign-ups per IP and leaves no account behind for refused ones', async () => {
    const limited = await createTestApp({ rateLimitFactor: 1 });
    try {
      const emails = Array.from({ length: 11 }, () => uniqueEmail('ip'));
      const codes = [];
      for (const email of emails) {
        codes.push(
          (
            await limited.app.inject({
              method: 'POST',
              url: '/api/v1/signup',
              payload: { name: 'N', email, password: 'quill-and-ink-42' },
              remoteAddress: '10.1.2.3',
            })
          ).statusCode,
        );
      }
      expect(codes.slice(0, 10).every((c) => c === 201)).toBe(true);
      expect(codes[10]).toBe(429);
      expect(await limited.app.services.repos.users.findByEmail(emails[10]!)).toBeUndefined();
      const other = await limited.app.inject({
        method: 'POST',
        url: '/api/v1/signup',
        payload: { name: 'N', email: uniqueEmail(), password: 'quill-and-ink-42' },
        remoteAddress: '10.9.9.9',
      });
      expect(other.statusCode).toBe(201);
    } finally {
      await limited.close();
    }
  });
});
