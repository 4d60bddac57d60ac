import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog, reportPost } from '../../test/blogs';
import { bearer, createUser, ENGINE, type TestApp } from '../../test/helpers';
import { pngImage } from '../../test/images';
import { multipartBody } from '../../test/multipart';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { AUTH_STATE_TTL_MS } from '../lib/auth-state-memo';
import { REDIS_UNREACHABLE } from './admin';

/**
 * The real `npm run admin` process against the configuration a server would use: DATA_DIR's
 * default SQLite file, or DATABASE_URL (a fresh PostgreSQL database). A server app on the same
 * configuration creates the users and reads the effects.
 */
const root = path.resolve(import.meta.dirname, '../../../..');
const dbName = `inkwell_cli_${randomBytes(4).toString('hex')}`;
let t: TestApp;
let env: NodeJS.ProcessEnv;

function databaseUrl() {
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${dbName}`;
  return url.toString();
}

async function admin(...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return adminWith({}, ...args);
}

async function adminWith(extra: NodeJS.ProcessEnv, ...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn('npm', ['run', '--silent', 'admin', '--', ...args], { cwd: root, env: { ...env, ...extra } });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, out, err };
}

beforeAll(async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'inkwell-cli-'));
  env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'silent',
    RESPONSE_CACHE: 'off',
  };
  if (ENGINE === 'postgres') {
    const c = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await c.connect();
    await c.query(`CREATE DATABASE ${dbName}`);
    await c.end();
    env.DATABASE_URL = databaseUrl();
  }
  const config = loadConfig(env, { mailWorker: false, backgroundJobs: false, rateLimitFactor: 100 });
  const app = await buildApp(config);
  t = {
    app,
    config,
    database: app.services.database,
    close: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
      if (ENGINE !== 'postgres') return;
      const c = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await c.end();
    },
  };
}, 30_000);
afterAll(async () => t?.close(), 30_000);

const me = async (token: string) => t.app.inject({ url: '/api/v1/me', headers: bearer(token) });

describe('npm run admin', () => {
  it('grants and revokes roles, suspends, unsuspends and deletes users, with audit rows', async () => {
    const [owner, helper, spammer] = await Promise.all([
      createUser(t, { name: 'Owner' }),
      createUser(t, { name: 'Helper' }),
      createUser(t, { name: 'Spammer' }),
    ]);
    const { blogId } = await createBlog(t, spammer, { title: 'Spam from the CLI test' });

    const grant = await admin('grant', 'admin', owner.email.toUpperCase());
    expect(grant.code, grant.err).toBe(0);
    expect(grant.out).toContain('Role changed');
    expect((await me(owner.token)).json().user.role).toBe('admin');
    expect((await admin('grant', 'moderator', helper.email)).code).toBe(0);
    expect((await me(helper.token)).json().user.role).toBe('moderator');
    expect((await admin('revoke', helper.email)).code).toBe(0);
    expect((await me(helper.token)).json().user.role).toBe('user');

    const suspend = await admin('suspend', spammer.email, 'Spam', 'wave');
    expect(suspend.code, suspend.err).toBe(0);
    // Without Redis the command line cannot tell the running server: its memo of token states
    // forgets the user within AUTH_STATE_TTL_MS (with Redis, at once; docs/operations.md).
    await expect.poll(async () => (await me(spammer.token)).statusCode, { timeout: AUTH_STATE_TTL_MS + 2000, interval: 200 }).toBe(401);
    expect((await t.app.inject({ url: `/api/v1/blogs/${blogId}` })).statusCode).toBe(404);
    expect((await admin('unsuspend', spammer.email)).code).toBe(0);
    expect((await t.app.inject({ url: `/api/v1/blogs/${blogId}` })).statusCode).toBe(200);

    const del = await admin('delete-user', spammer.email);
    expect(del.code, del.err).toBe(0);
    expect(await t.app.services.repos.users.findById(spammer.id)).toBeUndefined();
    expect((await t.app.inject({ url: `/api/v1/blogs/${blogId}` })).statusCode).toBe(404);

    const audit = (await t.app.inject({ url: '/api/v1/moderation/audit?limit=50', headers: bearer(owner.token) })).json().items;
    expect(audit.map((a: { action: string; moderator: unknown; reason: string | null }) => [a.action, a.moderator, a.reason])).toEqual([
      ['delete_user', null, 'From the command line'],
      ['unsuspend_user', null, 'From the command line'],
      ['suspend_user', null, 'Spam wave'],
      ['revoke_role', null, null],
      ['grant_role', null, null],
      ['grant_role', null, null],
    ]);
    expect(audit[0].targetLabel).toBe(spammer.username);
  }, 60_000);

  it('deletes a post named by its address, with its images and reports, as a take-down the audit log keeps', async () => {
    const [owner, writer, reader] = await Promise.all([
      createUser(t, { name: 'Site Owner' }),
      createUser(t, { name: 'Unlawful Writer' }),
      createUser(t, { name: 'Reader' }),
    ]);
    expect((await admin('grant', 'admin', owner.email)).code).toBe(0);
    const { payload, headers } = multipartBody(
      {
        title: 'A post to take down',
        description: 'd',
        tags: ['takedown'],
        draft: 'false',
        content: { blocks: [{ type: 'paragraph', data: { text: 'Text' } }] },
      },
      [{ field: 'image', filename: 'cover.png', content: await pngImage(120, 80), contentType: 'image/png' }],
    );
    const created = await t.app.inject({ method: 'POST', url: '/api/v1/blogs', payload, headers: { ...headers, ...bearer(writer.token) } });
    expect(created.statusCode, created.body).toBe(201);
    const { blogId } = created.json().blog;
    const image = (await t.app.inject({ url: `/api/v1/blogs/${blogId}` })).json().blog.image as string;
    const { id: dbId } = await t.database.db.selectFrom('blogs').select('id').where('blog_id', '=', blogId).executeTakeFirstOrThrow();
    expect((await t.app.inject({ url: image })).statusCode).toBe(200);
    await reportPost(t, reader, blogId, 'illegal');
    // A moderator's hide leaves the image at its address; the take-down removes it.
    const hide = await t.app.inject({
      method: 'POST',
      url: `/api/v1/moderation/posts/${blogId}/hide`,
      headers: bearer(owner.token),
      payload: { reason: 'Reported as unlawful' },
    });
    expect(hide.statusCode, hide.body).toBe(200);
    expect((await t.app.inject({ url: image })).statusCode).toBe(200);

    const del = await admin('delete-post', `https://inkwell.example/blog/${blogId}?ref=mail`, 'Court', 'order');
    expect(del.code, del.err).toBe(0);
    expect(del.out).toContain(`“A post to take down” (${blogId})`);
    expect((await t.app.inject({ url: `/api/v1/blogs/${blogId}`, headers: bearer(writer.token) })).statusCode).toBe(404);
    expect((await t.app.inject({ url: image })).statusCode).toBe(404);
    const left = await t.database.db.selectFrom('reports').select('id').where('blog_id', '=', dbId).execute();
    expect(left).toEqual([]);
    const [last] = (await t.app.inject({ url: '/api/v1/moderation/audit?limit=1', headers: bearer(owner.token) })).json().items;
    expect([last.action, last.moderator, last.reason, last.targetLabel, last.targetId]).toEqual([
      'delete_post',
      null,
      'Court order',
      'A post to take down',
      blogId,
    ]);

    const again = await admin('delete-post', blogId);
    expect([again.code, again.err.trim()]).toEqual([1, 'Blog not found']);
    // By the `_id` the API and the database show, too.
    const other = await createBlog(t, writer, { title: 'Named by its _id' });
    const { id: otherDbId } = await t.database.db
      .selectFrom('blogs')
      .select('id')
      .where('blog_id', '=', other.blogId)
      .executeTakeFirstOrThrow();
    const byDbId = await admin('delete-post', otherDbId);
    expect(byDbId.code, byDbId.err).toBe(0);
    expect((await t.app.inject({ url: `/api/v1/blogs/${other.blogId}` })).statusCode).toBe(404);
    expect((await admin('delete-post')).code).toBe(2);
  }, 60_000);

  it('says what is wrong: unknown address (1), bad usage (2)', async () => {
    const unknown = await admin('grant', 'admin', 'nobody@example.com');
    expect([unknown.code, unknown.err.trim()]).toEqual([1, 'User not found: nobody@example.com']);
    const usage = await admin('grant', 'emperor', 'someone@example.com');
    expect(usage.code).toBe(2);
    expect(usage.err).toContain('Usage: npm run admin -- <command>');

    // A Redis it cannot reach: running servers would not hear of the change, so nothing is done.
    const person = await createUser(t, { name: 'Not Promoted' });
    const offline = await adminWith({ REDIS_URL: 'redis://127.0.0.1:1/0', LOG_LEVEL: 'silent' }, 'grant', 'admin', person.email);
    expect(offline.code).toBe(1);
    expect(offline.err.trim().split('\n').pop()).toBe(REDIS_UNREACHABLE);
    expect((await me(person.token)).json().user.role).toBe('user');

    // A setting that is wrong is named in one line, without a stack.
    const wrong = await adminWith({ DATABASE_URL: 'mysql://localhost/inkwell' }, 'grant', 'admin', person.email);
    expect(wrong.code).toBe(1);
    expect(wrong.err).toContain('DATABASE_URL');
    expect(wrong.err).not.toMatch(/\n\s+at /);
  }, 30_000);
});

if (!process.env.TEST_REDIS_URL)
  console.warn('SKIPPED: TEST_REDIS_URL is not set, so what the command line announces through Redis is not tested (CI sets it).');

describe.skipIf(!process.env.TEST_REDIS_URL)('npm run admin beside a running server with Redis and its public cache', () => {
  it("lifts a suspension in the server's cached lists at once, not at the cache's TTL", async () => {
    const prefix = `cli-${randomBytes(4).toString('hex')}:`;
    const withRedis = { ...env, REDIS_URL: process.env.TEST_REDIS_URL, REDIS_PREFIX: prefix, RESPONSE_CACHE: 'on' };
    const server = await buildApp(loadConfig(withRedis, { mailWorker: false, backgroundJobs: false, rateLimitFactor: 100 }));
    const cli = (...args: string[]) => {
      const saved = env;
      env = withRedis;
      return admin(...args).finally(() => {
        env = saved;
      });
    };
    try {
      const writer = await createUser({ ...t, app: server }, { name: 'Suspended Then Not' });
      const { blogId } = await createBlog({ ...t, app: server }, writer, { title: 'Back after the suspension' });
      const feed = async () => (await server.inject({ url: '/api/v1/blogs?limit=50' })).body;
      expect(await feed()).toContain(blogId);
      expect(await feed()).toContain(blogId); // cached

      expect((await cli('suspend', writer.email, 'Spam')).code).toBe(0);
      await expect.poll(feed, { timeout: 2000, interval: 50 }).not.toContain(blogId);
      expect(await feed()).not.toContain(blogId); // the list without it, cached
      const lifted = await cli('unsuspend', writer.email);
      expect(lifted.code, lifted.err).toBe(0);
      // Within a moment of the command's exit (the cache's TTL is a minute).
      await expect.poll(feed, { timeout: 2000, interval: 50 }).toContain(blogId);
    } finally {
      await server.close();
    }
  }, 60_000);
});
