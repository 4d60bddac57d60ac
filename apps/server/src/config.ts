import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REALTIME_LIMITS } from '@inkwell/core';
import { z } from 'zod';

/**
 * The only place that reads process.env. Everything else receives a Config.
 */
/** An optional URL variable whose scheme must be one of `schemes`; an empty value counts as unset. */
function urlOf(schemes: string[], what: string) {
  return z
    .string()
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || (URL.canParse(v) && schemes.includes(new URL(v).protocol.slice(0, -1))), {
      message: `must be ${what}`,
    });
}

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: urlOf(['postgres', 'postgresql'], 'a PostgreSQL URL (postgres://user:password@host:5432/db); unset it to use SQLite'),
  REDIS_URL: urlOf(['redis', 'rediss'], 'a Redis URL (redis://host:6379 or rediss://…)'),
  REDIS_PREFIX: z.string().default('inkwell:'),
  SMTP_URL: urlOf(['smtp', 'smtps'], 'an SMTP URL (smtp://user:password@host:587 or smtps://…:465)'),
  MAIL_FROM: z.string().default('Inkwell <no-reply@localhost>'),
  PUBLIC_URL: z.string().url().optional(),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
  JWT_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .default(7 * 24 * 3600),
  CORS_ORIGINS: z.string().default(''),
  TRUST_PROXY: z.enum(['true', 'false']).default('false'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RATE_LIMIT_FACTOR: z.coerce.number().positive().default(1),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_ISSUER: z.string().url().default('https://accounts.google.com'),
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(5 * 1024 * 1024),
  ALLOW_PRIVATE_URL_FETCH: z.enum(['true', 'false']).default('false'),
  WEB_DIST_DIR: z.string().optional(),
  RESPONSE_CACHE: z.enum(['on', 'off']).default('on'),
  /** Seconds an in-memory public answer may live at most (heals a change the cache never saw). */
  RESPONSE_CACHE_TTL: z.coerce.number().int().min(1).max(86_400).default(60),
  /** Milliseconds a list page may still show a post's previous like/save/comment counts (0: none). */
  RESPONSE_CACHE_COUNTS_LAG_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  STORAGE: z.enum(['local', 's3'], { message: "STORAGE must be 'local' or 's3'" }).default('local'),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().optional(),
  S3_ENDPOINT: urlOf(['http', 'https'], 'an http(s) URL of the S3-compatible service'),
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).default('false'),
  S3_PUBLIC_URL: urlOf(['http', 'https'], 'an http(s) URL that serves the bucket (CDN, public bucket domain)'),
  AWS_REGION: z.string().optional(),
  AWS_ACCESS_KEY_ID: z.string().optional(),
  AWS_SECRET_ACCESS_KEY: z.string().optional(),
  AWS_SESSION_TOKEN: z.string().optional(),
  BACKGROUND_JOBS: z.enum(['on', 'off']).default('on'),
  UNATTACHED_UPLOAD_HOURS: z.coerce.number().positive().default(24),
  SENT_MAIL_RETENTION_DAYS: z.coerce.number().positive().default(7),
  READ_NOTIFICATION_RETENTION_DAYS: z.coerce.number().positive().default(90),
  /** Newsletter sign-ups never confirmed are deleted this many days after the request (and their link stops working). */
  UNCONFIRMED_SUBSCRIBER_DAYS: z.coerce.number().positive().default(7),
  /** Accounts never verified are deleted this many days after their last sign-up (links last 24 hours). */
  UNVERIFIED_ACCOUNT_DAYS: z.coerce.number().positive().default(7),
  /** How often due scheduled posts are published; the scheduler ticks at least this often. */
  SCHEDULED_POSTS_INTERVAL_MS: z.coerce.number().int().min(500).max(3_600_000).default(15_000),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  env: Env['NODE_ENV'];
  host: string;
  port: number;
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  /** Prefix of every Redis key and channel, so several sites (or test runs) can share one Redis. */
  redisPrefix: string;
  smtpUrl?: string;
  mailFrom: string;
  publicUrl: string;
  jwtSecret: string;
  jwtTtlSeconds: number;
  corsOrigins: string[];
  trustProxy: boolean;
  logLevel: Env['LOG_LEVEL'];
  /** Multiplies every rate limit of RATE_LIMITS (packages/core); tests raise it, production keeps 1. */
  rateLimitFactor: number;
  google: { clientId?: string; issuer: string };
  uploadMaxBytes: number;
  allowPrivateUrlFetch: boolean;
  /** Built web app to serve; absent in API-only tests. */
  webDistDir?: string;
  /** Mail worker polling; tests turn it off and drain the outbox themselves. */
  mailWorker: boolean;
  /** How often open sockets' tokens are checked again (REALTIME_LIMITS.recheckMs; tests shorten it). */
  realtimeRecheckMs: number;
  /** In-memory cache of anonymous public reads (off: every request runs the full path, for benchmarks). */
  responseCache: boolean;
  responseCacheTtlMs: number;
  /** How long list pages may show a post's previous counts (RESPONSE_CACHE_COUNTS_LAG_MS); its own page never does. */
  responseCacheCountsLagMs: number;
  /** Where uploads live; local disk under dataDir unless S3 is configured. */
  storage: StorageConfig;
  /** The cleanup scheduler; tests turn it off and run jobs themselves. */
  backgroundJobs: boolean;
  /** How often the scheduled-posts job publishes due posts (SCHEDULED_POSTS_INTERVAL_MS). */
  scheduledPostsIntervalMs: number;
  retention: {
    unattachedUploadHours: number;
    sentMailDays: number;
    readNotificationDays: number;
    unconfirmedSubscriberDays: number;
    unverifiedAccountDays: number;
  };
  /** Prometheus metrics: off unless a bearer token (served at /metrics) or a separate port is set. */
  metrics: { token?: string; port?: number };
}

export type StorageConfig =
  | { kind: 'local' }
  | {
      kind: 's3';
      bucket: string;
      region: string;
      endpoint?: string;
      forcePathStyle: boolean;
      /** Browsers load files from here; unset: the app serves them at /uploads/ from the bucket. */
      publicUrl?: string;
      /** From AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY; unset: the SDK's default chain (instance role, profile…). */
      credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
    };

function storageConfig(env: Env): StorageConfig {
  if (env.STORAGE === 'local') return { kind: 'local' };
  if (!env.S3_BUCKET) throw new Error('Invalid configuration: S3_BUCKET: must be set when STORAGE=s3');
  if (!env.AWS_ACCESS_KEY_ID !== !env.AWS_SECRET_ACCESS_KEY) {
    throw new Error('Invalid configuration: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY: set both or neither');
  }
  return {
    kind: 's3',
    bucket: env.S3_BUCKET,
    region: env.S3_REGION ?? env.AWS_REGION ?? 'us-east-1',
    endpoint: env.S3_ENDPOINT,
    forcePathStyle: env.S3_FORCE_PATH_STYLE === 'true',
    publicUrl: env.S3_PUBLIC_URL?.replace(/\/+$/, ''),
    credentials:
      env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
        ? { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY, sessionToken: env.AWS_SESSION_TOKEN }
        : undefined,
  };
}

/** Without JWT_SECRET, a random secret is generated once and kept in the data folder. */
function loadOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/**
 * The `.env` file of the folder the process starts in (.env.example says to copy it there), or the
 * file ENV_FILE names: its variables are added to the environment, where a variable already set
 * wins. Not read by tests, nor with ENV_FILE=none (the browser suite and benchmarks start servers
 * that must not pick up a developer's settings). Returns the file read, if any.
 */
export function readEnvFile(): string | undefined {
  const named = process.env.ENV_FILE;
  if (process.env.NODE_ENV === 'test' || named === 'none') return undefined;
  const file = path.resolve(named || '.env');
  if (!existsSync(file)) {
    if (named) throw new Error(`Invalid configuration: ENV_FILE: ${file} does not exist`);
    return undefined;
  }
  process.loadEnvFile(file);
  return file;
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  // An empty value counts as unset, for every variable: `PORT=` in an env file read as 0 (a random
  // port, and a PUBLIC_URL of localhost:0 in every mailed link), `JWT_TTL_SECONDS=` as "too small".
  const parsed = envSchema.safeParse(Object.fromEntries(Object.entries(source).filter(([, value]) => value !== '')));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const env = parsed.data;
  const dataDir = path.resolve(overrides.dataDir ?? env.DATA_DIR);
  const port = overrides.port ?? env.PORT;
  // Both listeners on one port failed at start with a bare EADDRINUSE that named neither variable.
  if (env.METRICS_PORT !== undefined && env.METRICS_PORT === port)
    throw new Error('Invalid configuration: METRICS_PORT: must differ from PORT (the metrics listener is separate)');
  return {
    env: env.NODE_ENV,
    host: env.HOST,
    port,
    dataDir,
    databaseUrl: env.DATABASE_URL,
    redisUrl: env.REDIS_URL,
    redisPrefix: env.REDIS_PREFIX,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    jwtSecret: env.JWT_SECRET ?? overrides.jwtSecret ?? loadOrCreateSecret(dataDir),
    jwtTtlSeconds: env.JWT_TTL_SECONDS,
    corsOrigins: env.CORS_ORIGINS.split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    trustProxy: env.TRUST_PROXY === 'true',
    logLevel: env.LOG_LEVEL,
    rateLimitFactor: env.RATE_LIMIT_FACTOR,
    google: { clientId: env.GOOGLE_CLIENT_ID || undefined, issuer: env.GOOGLE_ISSUER },
    uploadMaxBytes: env.UPLOAD_MAX_BYTES,
    allowPrivateUrlFetch: env.ALLOW_PRIVATE_URL_FETCH === 'true',
    webDistDir: env.WEB_DIST_DIR,
    mailWorker: true,
    realtimeRecheckMs: REALTIME_LIMITS.recheckMs,
    responseCache: env.RESPONSE_CACHE === 'on',
    responseCacheTtlMs: env.RESPONSE_CACHE_TTL * 1000,
    responseCacheCountsLagMs: env.RESPONSE_CACHE_COUNTS_LAG_MS,
    storage: storageConfig(env),
    backgroundJobs: env.BACKGROUND_JOBS === 'on',
    scheduledPostsIntervalMs: env.SCHEDULED_POSTS_INTERVAL_MS,
    retention: {
      unattachedUploadHours: env.UNATTACHED_UPLOAD_HOURS,
      sentMailDays: env.SENT_MAIL_RETENTION_DAYS,
      readNotificationDays: env.READ_NOTIFICATION_RETENTION_DAYS,
      unconfirmedSubscriberDays: env.UNCONFIRMED_SUBSCRIBER_DAYS,
      unverifiedAccountDays: env.UNVERIFIED_ACCOUNT_DAYS,
    },
    metrics: { token: env.METRICS_TOKEN || undefined, port: env.METRICS_PORT },
    ...overrides,
  };
}
