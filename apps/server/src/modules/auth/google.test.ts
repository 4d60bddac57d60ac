import { randomBytes } from 'node:crypto';
import { GOOGLE_MESSAGES } from '@inkwell/core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, createTestApp, createUser, type TestApp, uniqueEmail } from '../../../test/helpers';
import { type FakeIssuer, listenIdentityProvider, runImplicitFlow, startFakeIssuer } from '../../../test/oidc';
import { newUserRow } from '../users/users.repo';

let issuer: FakeIssuer;
let t: TestApp;

beforeAll(async () => {
  issuer = await startFakeIssuer();
  t = await createTestApp({ google: { clientId: issuer.clientId, issuer: issuer.issuer } });
});
afterAll(async () => {
  await t?.close();
  await issuer?.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const googleAuth = (accessToken: unknown) => t.app.inject({ method: 'POST', url: '/api/v1/google-auth', payload: { accessToken } });
const nonce = async (app = t) => {
  const res = await app.app.inject({ url: '/api/v1/google-auth/nonce' });
  expect(res.statusCode).toBe(200);
  return res.json().nonce as string;
};
const userByEmail = (email: string) => t.app.services.repos.users.findByEmail(email);
const freshEmail = () => `g.${randomBytes(4).toString('hex')}@example.test`;

describe('GET /api/v1/google-auth/config', () => {
  it('hands the browser the client id and the issuer authorization endpoint, reading discovery once', async () => {
    const first = await t.app.inject({ url: '/api/v1/google-auth/config' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.json()).toEqual({ enabled: true, clientId: issuer.clientId, authorizationEndpoint: `${issuer.issuer}/auth` });
    await t.app.inject({ url: '/api/v1/google-auth/config' });
    expect(issuer.hits['/.well-known/openid-configuration']).toBe(1);
  });
});

describe('POST /api/v1/google-auth: token checks', () => {
  const cases: [string, (n: string, email: string) => Promise<string>][] = [
    ['wrong audience', (n, email) => issuer.sign(n, { claims: { email, aud: 'someone-else.apps.example' } })],
    ['wrong issuer', (n, email) => issuer.sign(n, { claims: { email, iss: 'https://evil.example' } })],
    ['expired', (n, email) => issuer.sign(n, { claims: { email }, expiresIn: -300 })],
    ['bad signature (a key the issuer does not publish)', (n, email) => issuer.sign(n, { claims: { email }, foreignKey: true })],
    ['unverified e-mail', (n, email) => issuer.sign(n, { claims: { email, email_verified: false } })],
    ['email_verified as a string', (n, email) => issuer.sign(n, { claims: { email, email_verified: 'true' } })],
    ['no e-mail', (n) => issuer.sign(n, { claims: { email: undefined } })],
    ['missing nonce', (_n, email) => issuer.sign(undefined, { claims: { email } })],
    [
      'a nonce this server did not sign',
      (n, email) => issuer.sign(`${n.split('.').slice(0, 2).join('.')}.${'A'.repeat(43)}`, { claims: { email } }),
    ],
    ['alg none', async (n, email) => issuer.unsigned(n, { claims: { email } })],
    [
      'tampered payload',
      async (n, email) => {
        const [header, payload, signature] = (await issuer.sign(n, { claims: { email: `x${email}` } })).split('.');
        const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
        const forged = Buffer.from(JSON.stringify({ ...claims, email })).toString('base64url');
        return `${header}.${forged}.${signature}`;
      },
    ],
    ['not a JWT', async () => 'not-a-token'],
  ];

  it.each(cases)('refuses %s with 401 and creates no account', async (_label, make) => {
    const email = freshEmail();
    const res = await googleAuth(await make(await nonce(), email));
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ success: false, message: 'Authentication failed' });
    expect(await userByEmail(email)).toBeUndefined();
  });

  it('refuses a replayed nonce: the same token twice, or a second token carrying it', async () => {
    const n = await nonce();
    const email = freshEmail();
    const token = await issuer.sign(n, { claims: { email } });
    expect((await googleAuth(token)).statusCode).toBe(200);
    expect((await googleAuth(token)).statusCode).toBe(401);
    const otherEmail = freshEmail();
    const second = await issuer.sign(n, { claims: { email: otherEmail } });
    const replay = await googleAuth(second);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().message).toBe('Authentication failed');
    expect(await userByEmail(otherEmail)).toBeUndefined();
  });

  it('refuses a nonce older than 10 minutes', async () => {
    const n = await nonce();
    const token = await issuer.sign(n, { expiresIn: 7200 });
    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now + 11 * 60_000);
    expect((await googleAuth(token)).statusCode).toBe(401);
  });

  it('refuses a nonce signed by another server (another secret)', async () => {
    const other = await createTestApp({ google: { clientId: issuer.clientId, issuer: issuer.issuer } });
    try {
      const token = await issuer.sign(await nonce(other));
      expect((await googleAuth(token)).statusCode).toBe(401);
      // The same token is fine where its nonce came from.
      expect((await other.app.inject({ method: 'POST', url: '/api/v1/google-auth', payload: { accessToken: token } })).statusCode).toBe(
        200,
      );
    } finally {
      await other.close();
    }
  });

  it('asks for the token by name', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/google-auth', payload: {} });
    expect(res.statusCode).toBe(400);
    expect(res.json().success).toBe(false);
  });
});

describe('POST /api/v1/google-auth: accounts', () => {
  it('creates a verified Google account without a password and signs it in', async () => {
    const email = freshEmail();
    const sub = `sub-${randomBytes(5).toString('hex')}`;
    const token = await issuer.sign(await nonce(), {
      claims: { email: email.toUpperCase(), sub, name: '  Grace Hopper ', picture: 'https://images.example/grace.png' },
    });
    const res = await googleAuth(token);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, message: 'Signed in with Google' });
    expect(body.user).toMatchObject({
      email,
      name: 'Grace Hopper',
      googleAuth: true,
      profilePic: 'https://images.example/grace.png',
      followers: [],
      following: [],
    });
    expect(body.user.username).toMatch(/^g[0-9a-f]{8}/);
    const row = await userByEmail(email);
    expect(row).toMatchObject({ google_auth: 1, google_sub: sub, email_verified: 1, password_hash: null });
    // The session token works like an e-mail sign-in's.
    const me = await t.app.inject({ url: '/api/v1/me', headers: bearer(body.user.token) });
    expect(me.statusCode).toBe(200);
    expect(me.json().user.googleAuth).toBe(true);
  });

  it('uses the e-mail local part without a name, and drops a non-https picture', async () => {
    const email = freshEmail();
    const res = await googleAuth(
      await issuer.sign(await nonce(), { claims: { email, name: undefined, picture: 'http://x.example/a.png' } }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ name: email.split('@')[0], profilePic: null });
  });

  it('signs the same Google account in again without a second account', async () => {
    const email = freshEmail();
    const sub = `sub-${randomBytes(5).toString('hex')}`;
    const first = await googleAuth(await issuer.sign(await nonce(), { claims: { email, sub } }));
    const again = await googleAuth(await issuer.sign(await nonce(), { claims: { email, sub, name: 'Renamed At Google' } }));
    expect(again.statusCode).toBe(200);
    expect(again.json().user.id).toBe(first.json().user.id);
    expect(again.json().user.name).toBe(first.json().user.name);
    const n = await t.database.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(1);
  });

  it('refuses to merge into an e-mail/password account with the same address', async () => {
    const existing = await createUser(t, { email: uniqueEmail('pw') });
    const res = await googleAuth(await issuer.sign(await nonce(), { claims: { email: existing.email } }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ success: false, message: GOOGLE_MESSAGES.passwordAccount });
    expect(res.json().message).toBe('An account with this email already exists. Please sign in with your email and password.');
    expect(await userByEmail(existing.email)).toMatchObject({ google_auth: 0, google_sub: null });
    // E-mail sign-in still works.
    const signin = await t.app.inject({
      method: 'POST',
      url: '/api/v1/signin',
      payload: { email: existing.email, password: existing.password },
    });
    expect(signin.statusCode).toBe(200);
  });

  it('links a Google account that has no subject yet, and refuses a different Google subject for it', async () => {
    const email = freshEmail();
    const id = `0190a000-0000-7000-8000-${randomBytes(6).toString('hex')}`;
    const now = new Date().toISOString();
    await t.app.services.repos.users.insert(
      newUserRow(
        {
          id,
          email,
          name: 'Legacy Google',
          username: `legacy${randomBytes(3).toString('hex')}`,
          password_hash: null,
          google_auth: 1,
          google_sub: null,
          email_verified: 1,
        },
        now,
      ),
    );
    const linked = await googleAuth(await issuer.sign(await nonce(), { claims: { email, sub: 'legacy-sub-1' } }));
    expect(linked.statusCode).toBe(200);
    expect(linked.json().user.id).toBe(id);
    expect((await userByEmail(email))?.google_sub).toBe('legacy-sub-1');
    const other = await googleAuth(await issuer.sign(await nonce(), { claims: { email, sub: 'legacy-sub-2' } }));
    expect(other.statusCode).toBe(409);
  });

  it('creates one account when the same person signs in twice at once', async () => {
    const email = freshEmail();
    const sub = `sub-${randomBytes(5).toString('hex')}`;
    const tokens = await Promise.all([0, 1, 2].map(async () => issuer.sign(await nonce(), { claims: { email, sub } })));
    const results = await Promise.all(tokens.map(googleAuth));
    for (const r of results) expect(r.statusCode).toBe(200);
    expect(new Set(results.map((r) => r.json().user.id)).size).toBe(1);
  });

  it('lets a Google account delete itself without a password and refuses to change its password', async () => {
    const res = await googleAuth(await issuer.sign(await nonce(), { claims: { email: freshEmail() } }));
    const { token, id, email } = res.json().user;
    const change = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/change-password',
      headers: bearer(token),
      payload: { currentPassword: 'whatever1', newPassword: 'newsecret1' },
    });
    expect(change.statusCode).toBe(400);
    expect(change.json().message).toBe('Google accounts do not have a password');
    const del = await t.app.inject({ method: 'DELETE', url: `/api/v1/users/${id}`, headers: bearer(token), payload: { googleAuth: true } });
    expect(del.statusCode).toBe(200);
    expect(await userByEmail(email)).toBeUndefined();
  });
});

describe('Google sign-in configuration', () => {
  it('without GOOGLE_CLIENT_ID reports disabled and refuses with 400', async () => {
    const plain = await createTestApp();
    try {
      expect((await plain.app.inject({ url: '/api/v1/google-auth/config' })).json()).toEqual({ enabled: false });
      const nonceRes = await plain.app.inject({ url: '/api/v1/google-auth/nonce' });
      expect(nonceRes.statusCode).toBe(400);
      const res = await plain.app.inject({ method: 'POST', url: '/api/v1/google-auth', payload: { accessToken: 'x.y.z' } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ success: false, message: 'Google sign-in is not configured on this server' });
    } finally {
      await plain.close();
    }
  });

  it('answers 503 while the issuer cannot be reached', async () => {
    const down = await startFakeIssuer();
    const { issuer: url, clientId } = down;
    await down.close();
    const app = await createTestApp({ google: { clientId, issuer: url } });
    try {
      const res = await app.app.inject({ url: '/api/v1/google-auth/config' });
      expect(res.statusCode).toBe(503);
      expect(res.json().message).toBe(GOOGLE_MESSAGES.unavailable);
    } finally {
      await app.close();
    }
  });
});

describe('with oidc-provider as the identity service', () => {
  it('accepts its ID token from the implicit flow, once', async () => {
    const pending = await listenIdentityProvider();
    const redirectUri = 'http://127.0.0.1:9/signin';
    const idp = await pending.start({ redirectUris: [redirectUri] });
    const app = await createTestApp({ google: { clientId: idp.clientId, issuer: idp.issuer } });
    try {
      const config = (await app.app.inject({ url: '/api/v1/google-auth/config' })).json();
      const login = `ada.${randomBytes(3).toString('hex')}`;
      const result = await runImplicitFlow({
        authorizationEndpoint: config.authorizationEndpoint,
        clientId: config.clientId,
        redirectUri,
        nonce: await nonce(app),
        login,
      });
      const accessToken = result.get('id_token');
      expect(accessToken).toBeTruthy();
      const res = await app.app.inject({ method: 'POST', url: '/api/v1/google-auth', payload: { accessToken } });
      expect(res.statusCode).toBe(200);
      expect(res.json().user).toMatchObject({ email: `${login}@example.test`, googleAuth: true });
      expect((await app.app.inject({ method: 'POST', url: '/api/v1/google-auth', payload: { accessToken } })).statusCode).toBe(401);

      const unverified = await runImplicitFlow({
        authorizationEndpoint: config.authorizationEndpoint,
        clientId: config.clientId,
        redirectUri,
        nonce: await nonce(app),
        login: `unverified.${randomBytes(3).toString('hex')}`,
      });
      const refused = await app.app.inject({
        method: 'POST',
        url: '/api/v1/google-auth',
        payload: { accessToken: unverified.get('id_token') },
      });
      expect(refused.statusCode).toBe(401);
    } finally {
      await app.close();
      await idp.close();
    }
  });
});
