import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis, ReplyError } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deadPort } from '../../test/helpers';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { createDatabase, type DatabaseHandle } from '../db/database';
import { isDatabaseDown, isRedisDown } from './error-handler';

// A PostgreSQL URL where nothing listens: every query fails with ECONNREFUSED at once, as while
// the database restarts. Needs no running PostgreSQL.
const DOWN_URL = 'postgres://postgres@127.0.0.1:1/inkwell';

describe('while the database is unreachable', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'inkwell-down-'));
  let database: DatabaseHandle;
  let app: Awaited<ReturnType<typeof buildApp>>;
  beforeAll(async () => {
    database = createDatabase({ databaseUrl: DOWN_URL, sqliteFile: '' });
    const config = loadConfig(
      { NODE_ENV: 'test', LOG_LEVEL: 'silent' },
      { dataDir, jwtSecret: randomBytes(32).toString('hex'), mailWorker: false, publicUrl: 'http://localhost:3000' },
    );
    app = await buildApp(config, { database, migrate: false });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers API calls 503 with the error shape and a Retry-After', async () => {
    for (const request of [
      { method: 'GET' as const, url: '/api/v1/blogs?limit=4&page=1' },
      { method: 'GET' as const, url: '/api/v1/blogs/some-blog' },
      { method: 'POST' as const, url: '/api/v1/signin', payload: { email: 'a@example.com', password: 'secret123' } },
    ]) {
      const res = await app.inject(request);
      expect(res.statusCode, request.url).toBe(503);
      expect(res.json()).toEqual({ success: false, message: expect.any(String) });
      expect(res.headers['retry-after']).toBe('5');
    }
  });

  it('reports itself degraded on /api/v1/health', async () => {
    const res = await app.inject({ url: '/api/v1/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ success: false, database: { reachable: false } });
  });
});

describe('isDatabaseDown', () => {
  it('knows connection failures, server shutdowns and lost clients from other errors', () => {
    const coded = (code: string) => Object.assign(new Error('x'), { code });
    for (const e of [coded('ECONNREFUSED'), coded('57P01'), coded('57P03'), coded('08006')]) expect(isDatabaseDown(e)).toBe(true);
    expect(isDatabaseDown(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseDown(coded('3D000'))).toBe(true);
    expect(isDatabaseDown(Object.assign(new Error('database "inkwell" is not currently accepting connections'), { code: '55000' }))).toBe(
      true,
    );
    expect(isDatabaseDown(Object.assign(new Error('lock is not available'), { code: '55000' }))).toBe(false);
    expect(isDatabaseDown(new Error('Client has encountered a connection error and is not queryable'))).toBe(true);
    expect(isDatabaseDown(coded('23505'))).toBe(false);
    expect(isDatabaseDown(new Error('syntax error'))).toBe(false);
  });
});

describe('isRedisDown', () => {
  it("knows ioredis's errors for a command that could not reach Redis from Redis's own answers", async () => {
    const unreachable = new Redis(await deadPort(), '127.0.0.1', { maxRetriesPerRequest: 1, lazyConnect: true });
    unreachable.on('error', () => {});
    const failed = await unreachable.ping().catch((err: unknown) => err);
    unreachable.disconnect();
    expect((failed as Error).name).toBe('MaxRetriesPerRequestError');
    expect(isRedisDown(failed)).toBe(true);
    expect(isRedisDown(new Error('Connection is closed.'))).toBe(true);
    expect(isRedisDown(new ReplyError('NOSCRIPT No matching script'))).toBe(false);
    expect(isRedisDown(new Error('syntax error'))).toBe(false);
  });
});
