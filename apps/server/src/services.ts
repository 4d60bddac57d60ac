import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from './config';
import type { DatabaseHandle } from './db/database';
import { RateGuard } from './lib/rate-guard';
import { createMemoryRateLimiter, createRedisRateLimiter, type RateLimiter } from './lib/rate-limiter';
import { TokenService } from './lib/tokens';
import { MailRepository } from './mail/mail.repo';
import { MailService } from './mail/mail.service';
import { createFileTransport, createSmtpTransport } from './mail/transport';
import { VerificationRepository } from './modules/auth/auth.repo';
import { AuthService } from './modules/auth/auth.service';
import { UsersRepository } from './modules/users/users.repo';

/**
 * The composition root: every repository and service, wired once per app.
 * Route handlers reach services through app.services; nothing else builds them.
 */
export function createServices(config: Config, database: DatabaseHandle, log: FastifyBaseLogger) {
  const { db } = database;
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2, lazyConnect: false }) : undefined;
  redis?.on('error', (err) => log.warn({ err }, 'redis error'));
  const rateLimiter: RateLimiter = redis ? createRedisRateLimiter(redis) : createMemoryRateLimiter();
  const rate = new RateGuard(rateLimiter, config.rateLimitFactor);
  const tokens = new TokenService(config.jwtSecret, config.jwtTtlSeconds);

  const repos = {
    users: new UsersRepository(db),
    verifications: new VerificationRepository(db),
    mail: new MailRepository(db),
  };

  const transport = config.smtpUrl ? createSmtpTransport(config.smtpUrl) : createFileTransport(path.join(config.dataDir, 'mail'), log);
  const mail = new MailService(repos.mail, transport, config.mailFrom, log);

  const auth = new AuthService({
    db,
    users: repos.users,
    verifications: repos.verifications,
    tokens,
    mail,
    rate,
    publicUrl: config.publicUrl,
  });

  return {
    config,
    database,
    redis,
    repos,
    tokens,
    rate,
    mail,
    auth,
    async close() {
      await mail.stop();
      await rateLimiter.close();
      redis?.disconnect();
    },
  };
}

export type Services = ReturnType<typeof createServices>;

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}
