import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { loadConfig, readEnvFile } from './config';
import { createDatabase } from './db/database';

const dataDir = mkdtempSync(path.join(tmpdir(), 'inkwell-config-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(32), ...env });

describe('configuration is validated at start, naming the variable', () => {
  it.each([
    [{ DATABASE_URL: 'mysql://root@db/inkwell' }, 'DATABASE_URL: must be a PostgreSQL URL'],
    [{ DATABASE_URL: './data/inkwell.sqlite' }, 'DATABASE_URL: must be a PostgreSQL URL'],
    [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL: must be a Redis URL'],
    [{ SMTP_URL: 'https://mail.example.com' }, 'SMTP_URL: must be an SMTP URL'],
    [{ STORAGE: 'gcs' }, "STORAGE: STORAGE must be 'local' or 's3'"],
    [{ STORAGE: 's3' }, 'S3_BUCKET: must be set when STORAGE=s3'],
    [{ STORAGE: 's3', S3_BUCKET: 'media', S3_ENDPOINT: 'minio:9000' }, 'S3_ENDPOINT: must be an http(s) URL'],
    [{ STORAGE: 's3', S3_BUCKET: 'media', AWS_ACCESS_KEY_ID: 'AKIA' }, 'AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY: set both or neither'],
    [{ METRICS_TOKEN: 'short' }, 'METRICS_TOKEN: must be at least 16 characters'],
    [{ METRICS_PORT: 'ninety' }, 'METRICS_PORT'],
    [{ PORT: '3108', METRICS_PORT: '3108' }, 'METRICS_PORT: must differ from PORT'],
  ])('%o is refused', (env, message) => {
    expect(() => load(env)).toThrow(message);
  });

  it('accepts postgresql://, rediss:// and smtps:// URLs; empty values count as unset', () => {
    const config = load({
      DATABASE_URL: 'postgresql://u:p@db:5432/inkwell',
      REDIS_URL: 'rediss://cache:6380',
      SMTP_URL: 'smtps://u:p@mail:465',
      METRICS_PORT: '',
      METRICS_TOKEN: '',
    });
    expect(config).toMatchObject({
      databaseUrl: 'postgresql://u:p@db:5432/inkwell',
      redisUrl: 'rediss://cache:6380',
      smtpUrl: 'smtps://u:p@mail:465',
    });
    expect(config.metrics).toEqual({ token: undefined, port: undefined });
    expect(load({ DATABASE_URL: '', REDIS_URL: '' })).toMatchObject({ databaseUrl: undefined, redisUrl: undefined });
    const blanks = load({ PORT: '', JWT_TTL_SECONDS: '', RATE_LIMIT_FACTOR: '', RESPONSE_CACHE_COUNTS_LAG_MS: '', UPLOAD_MAX_BYTES: '' });
    expect(blanks.port).toBe(3000);
    expect(blanks.publicUrl).toBe('http://localhost:3000');
  });

  it('reads S3 settings and the standard AWS variables', () => {
    expect(load({}).storage).toEqual({ kind: 'local' });
    const config = load({
      STORAGE: 's3',
      S3_BUCKET: 'media',
      S3_ENDPOINT: 'https://acct.r2.cloudflarestorage.com',
      S3_REGION: 'auto',
      S3_FORCE_PATH_STYLE: 'true',
      S3_PUBLIC_URL: 'https://media.example.com/',
      AWS_ACCESS_KEY_ID: 'key',
      AWS_SECRET_ACCESS_KEY: 'secret',
    });
    expect(config.storage).toEqual({
      kind: 's3',
      bucket: 'media',
      region: 'auto',
      endpoint: 'https://acct.r2.cloudflarestorage.com',
      forcePathStyle: true,
      publicUrl: 'https://media.example.com',
      credentials: { accessKeyId: 'key', secretAccessKey: 'secret', sessionToken: undefined },
    });
    // Without keys the SDK's own chain (instance role, web identity, profile) applies; AWS_REGION is the fallback region.
    expect(load({ STORAGE: 's3', S3_BUCKET: 'media', AWS_REGION: 'eu-west-1' }).storage).toMatchObject({
      region: 'eu-west-1',
      credentials: undefined,
    });
  });

  it('never opens SQLite for a DATABASE_URL that is not PostgreSQL', () => {
    expect(() => createDatabase({ databaseUrl: 'sqlite://x.db', sqliteFile: path.join(dataDir, 'x.sqlite') })).toThrow(
      'DATABASE_URL must be a postgres:// or postgresql:// URL',
    );
  });
});

describe('the .env file (.env.example: "Copy to .env")', () => {
  it('adds its variables where none is set, and is not read by tests or with ENV_FILE=none', () => {
    const file = path.join(dataDir, 'site.env');
    writeFileSync(file, 'INKWELL_TEST_FROM_FILE=file\nINKWELL_TEST_ALREADY=file\n');
    vi.stubEnv('INKWELL_TEST_ALREADY', 'environment');
    vi.stubEnv('ENV_FILE', file);
    try {
      // Under the test runner (NODE_ENV=test) nothing is read.
      expect(readEnvFile()).toBeUndefined();
      expect(process.env.INKWELL_TEST_FROM_FILE).toBeUndefined();
      vi.stubEnv('NODE_ENV', 'production');
      vi.stubEnv('ENV_FILE', 'none');
      expect(readEnvFile()).toBeUndefined();
      vi.stubEnv('ENV_FILE', file);
      expect(readEnvFile()).toBe(file);
      expect(process.env.INKWELL_TEST_FROM_FILE).toBe('file');
      expect(process.env.INKWELL_TEST_ALREADY).toBe('environment');
      vi.stubEnv('ENV_FILE', path.join(dataDir, 'missing.env'));
      expect(() => readEnvFile()).toThrow('ENV_FILE');
    } finally {
      vi.unstubAllEnvs();
      delete process.env.INKWELL_TEST_FROM_FILE;
    }
  });
});
