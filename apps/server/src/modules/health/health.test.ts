import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, deadPort, ENGINE, type TestApp } from '../../../test/helpers';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { createDatabase } from '../../db/database';

describe('health probes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('liveness answers without touching any dependency', async () => {
    const res = await t.app.inject({ url: '/api/v1/health/live' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, status: 'ok' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('readiness checks the database and local storage (no Redis configured)', async () => {
    const res = await t.app.inject({ url: '/api/v1/health/ready' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      success: true,
      status: 'ready',
      checks: { database: { engine: ENGINE, reachable: true }, storage: { kind: 'local', reachable: true } },
    });
    expect(body.checks.redis).toBeUndefined();
  });

  it('keeps the original /health answer for existing callers', async () => {
    const res = await t.app.inject({ url: '/api/v1/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, status: 'ok', database: { engine: ENGINE, reachable: true } });
  });

  it('no probe is cached or answered 304, whatever the prober sends', async () => {
    for (const url of ['/api/v1/health', '/api/v1/health/live', '/api/v1/health/ready']) {
      const res = await t.app.inject({ url, headers: { 'if-none-match': '*' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-store');
      expect(res.headers.etag, url).toBeUndefined();
    }
  });
});

describe('readiness with Redis', () => {
  it.skipIf(!process.env.TEST_REDIS_URL)('includes Redis when configured and reachable', async () => {
    const t = await createTestApp({ redisUrl: process.env.TEST_REDIS_URL });
    try {
      const res = await t.app.inject({ url: '/api/v1/health/ready' });
      expect(res.statusCode).toBe(200);
      expect(res.json().checks.redis).toMatchObject({ reachable: true });
    } finally {
      await t.close();
    }
  });

  it('is not ready (503, naming Redis) when the configured Redis does not answer; liveness stays 200, writes answer 503', async () => {
    const t = await createTestApp({ redisUrl: `redis://127.0.0.1:${await deadPort()}` });
    try {
      const res = await t.app.inject({ url: '/api/v1/health/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        success: false,
        status: 'not ready',
        message: 'Unreachable: redis',
        checks: { database: { reachable: true }, redis: { reachable: false }, storage: { reachable: true } },
      });
      expect((await t.app.inject({ url: '/api/v1/health/live' })).statusCode).toBe(200);

      // A write checks its rate limits in Redis first: it is refused as unavailable (retry), not
      // as a server error, and nothing is created.
      const signup = await t.app.inject({
        method: 'POST',
        url: '/api/v1/signup',
        payload: { name: 'Redis Down', username: 'redisdown', email: 'redis-down@example.com', password: 'a long enough password' },
      });
      expect(signup.statusCode).toBe(503);
      expect(signup.headers['retry-after']).toBe('5');
      expect(signup.json()).toEqual({ success: false, message: 'Service temporarily unavailable. Please try again.' });
      expect((await t.app.inject({ url: '/api/v1/users/redisdown' })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});

describe('readiness while the database is down', () => {
  it('answers 503 naming the database', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'inkwell-health-'));
    const database = createDatabase({ databaseUrl: `postgres://postgres@127.0.0.1:${await deadPort()}/inkwell`, sqliteFile: '' });
    const config = loadConfig(
      { NODE_ENV: 'test', LOG_LEVEL: 'silent' },
      { dataDir, jwtSecret: randomBytes(32).toString('hex'), mailWorker: false, backgroundJobs: false },
    );
    const app = await buildApp(config, { database, migrate: false });
    try {
      const res = await app.inject({ url: '/api/v1/health/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        message: 'Unreachable: database',
        checks: { database: { reachable: false, error: 'ECONNREFUSED' } },
      });
      expect((await app.inject({ url: '/api/v1/health' })).statusCode).toBe(503);
      expect((await app.inject({ url: '/api/v1/health/live' })).statusCode).toBe(200);
    } finally {
      await app.close();
      await database.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
