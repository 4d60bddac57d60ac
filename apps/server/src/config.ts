import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/**
 * The only place that reads process.env. Everything else receives a Config.
 */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  REDIS_URL: z.string().optional(),
  REDIS_PREFIX: z.string().default('inkwell:'),
  SMTP_URL: z.string().optional(),
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
  /** Multiplies every auth rate limit; tests raise it, production keeps 1. */
  rateLimitFactor: number;
  google: { clientId?: string; issuer: string };
  uploadMaxBytes: number;
  allowPrivateUrlFetch: boolean;
  /** Built web app to serve; absent in API-only tests. */
  webDistDir?: string;
  /** Mail worker polling; tests turn it off and drain the outbox themselves. */
  mailWorker: boolean;
  /** In-memory cache of anonymous public reads (off: every request runs the full path, for benchmarks). */
  responseCache: boolean;
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

export function loadConfig(source: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const env = parsed.data;
  const dataDir = path.resolve(overrides.dataDir ?? env.DATA_DIR);
  const port = overrides.port ?? env.PORT;
  return {
    env: env.NODE_ENV,
    host: env.HOST,
    port,
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    redisPrefix: env.REDIS_PREFIX,
    smtpUrl: env.SMTP_URL || undefined,
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
    responseCache: env.RESPONSE_CACHE === 'on',
    ...overrides,
  };
}
