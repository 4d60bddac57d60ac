import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type CompiledQuery, sql } from 'kysely';
import pg from 'pg';
import { type BuildOptions, buildApp } from '../src/app';
import { type Config, loadConfig } from '../src/config';
import { createDatabase, type DatabaseHandle } from '../src/db/database';

export const ENGINE = (process.env.TEST_ENGINE ?? 'sqlite') as 'sqlite' | 'postgres';

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  database: DatabaseHandle;
  close(): Promise<void>;
}

/**
 * A real app on a real database: a fresh SQLite file, or a fresh PostgreSQL schema
 * on TEST_DATABASE_URL, so test files run in parallel without seeing each other.
 */
export async function createTestApp(
  overrides: Partial<Config> = {},
  shareWith?: TestApp,
  onQuery?: (q: CompiledQuery) => void,
  buildOptions: Pick<BuildOptions, 'logStream' | 'onRoute'> = {},
): Promise<TestApp> {
  if (shareWith) return secondInstance(shareWith, overrides);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'inkwell-test-'));
  const config = loadConfig(
    { NODE_ENV: 'test', LOG_LEVEL: 'silent' },
    {
      dataDir,
      jwtSecret: randomBytes(32).toString('hex'),
      rateLimitFactor: 100,
      mailWorker: false,
      backgroundJobs: false,
      publicUrl: 'http://localhost:3000',
      redisPrefix: `test:${randomBytes(4).toString('hex')}:`,
      ...overrides,
    },
  );
  let dropSchema = async () => {};
  let database: DatabaseHandle;
  if (ENGINE === 'postgres') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('TEST_ENGINE=postgres needs TEST_DATABASE_URL');
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
    database = createDatabase({ databaseUrl: url, sqliteFile: '', pgSchema: schema, poolSize: 5, onQuery });
    dropSchema = async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP SCHEMA ${schema} CASCADE`);
      await c.end();
    };
  } else {
    database = createDatabase({ sqliteFile: path.join(dataDir, 'test.sqlite'), onQuery });
  }
  const app = await buildApp(config, { ...buildOptions, database });
  await app.ready();
  return {
    app,
    config,
    database,
    async close() {
      await app.close();
      await database.destroy();
      await dropSchema();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Another app instance on the same database, data folder and secret: as a second server behind a load balancer. */
async function secondInstance(first: TestApp, overrides: Partial<Config>): Promise<TestApp> {
  const app = await buildApp({ ...first.config, ...overrides }, { database: first.database, migrate: false });
  await app.ready();
  return { app, config: first.config, database: first.database, close: () => app.close() };
}

/**
 * Another instance with its own connection to the same data, as another process would have
 * (a separate pool on PostgreSQL, a second handle on the SQLite file).
 */
export async function ownConnectionInstance(first: TestApp, overrides: Partial<Config> = {}): Promise<TestApp> {
  const database: DatabaseHandle =
    ENGINE === 'postgres'
      ? createDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, sqliteFile: '', pgSchema: first.database.pgSchema, poolSize: 2 })
      : createDatabase({ sqliteFile: path.join(first.config.dataDir, 'test.sqlite') });
  const app = await buildApp({ ...first.config, ...overrides }, { database, migrate: false });
  await app.ready();
  return {
    app,
    config: first.config,
    database,
    close: async () => {
      await app.close();
      await database.destroy();
    },
  };
}

let counter = 0;
/** A unique e-mail per call so tests never collide. */
export function uniqueEmail(prefix = 'user'): string {
  counter++;
  return `${prefix}${counter}.${randomBytes(3).toString('hex')}@example.com`;
}

/** The newest verification link mailed to an address, read from the outbox table. */
export async function latestMailLink(database: DatabaseHandle, to: string): Promise<string> {
  const row = await database.db
    .selectFrom('mail_outbox')
    .select(['text_body'])
    .where('to_address', '=', to)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const link = row.text_body.match(/https?:\/\/\S+/)?.[0];
  if (!link) throw new Error(`no link in mail to ${to}`);
  return link;
}

export interface TestUser {
  id: string;
  email: string;
  password: string;
  name: string;
  username: string;
  token: string;
}

/** Signs up, verifies through the mailed link, and signs in. */
export async function createUser(t: TestApp, fields: Partial<{ name: string; email: string; password: string }> = {}): Promise<TestUser> {
  const name = fields.name ?? 'Test User';
  const email = fields.email ?? uniqueEmail();
  const password = fields.password ?? 'quill-and-ink-42';
  const signup = await t.app.inject({ method: 'POST', url: '/api/v1/signup', payload: { name, email, password } });
  if (signup.statusCode !== 201) throw new Error(`signup failed: ${signup.body}`);
  const link = await latestMailLink(t.database, email);
  const token = new URL(link).pathname.split('/').pop();
  const verify = await t.app.inject({ method: 'GET', url: `/api/v1/verify-email/${token}` });
  if (verify.statusCode !== 200) throw new Error(`verify failed: ${verify.body}`);
  const signin = await t.app.inject({ method: 'POST', url: '/api/v1/signin', payload: { email, password } });
  if (signin.statusCode !== 200) throw new Error(`signin failed: ${signin.body}`);
  const user = signin.json().user;
  return { id: user.id, email, password, name, username: user.username, token: user.token };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export { sql };

/** A port where nothing listens (taken, then released). */
export async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
