import { type AccountFacts, accountTier, NEW_ACCOUNT_AGE_HOURS, type RateLimitName, type RateLimitTier } from '@inkwell/core';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { readsBody } from './form-body';
import type { RateGuard } from './rate-guard';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The RATE_LIMITS policy (packages/core) counted for this route, per account and per IP. Required on every API write. */
    rateLimit?: RateLimitName;
    /**
     * A second policy counted (after validation, so the body is read) only for the requests `when`
     * picks, e.g. 'comment-link' for a comment that contains a link.
     */
    rateLimitAlso?: { policy: RateLimitName; when(request: FastifyRequest): boolean };
  }
  interface FastifyInstance {
    /** Every rate-limited route and its policy, as registered (the write-route coverage test reads it). */
    rateLimitedRoutes: LimitedRoute[];
  }
}

export interface LimitedRoute {
  method: string;
  url: string;
  policy: RateLimitName;
  also?: RateLimitName;
}

export const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Whether a route changes something under the API prefix, and so must name a rate limit. */
export function isApiWrite(route: Pick<RouteOptions, 'method' | 'url'>, prefix: string): boolean {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  return route.url.startsWith(prefix) && methods.some((m) => WRITE_METHODS.has(m.toUpperCase()));
}

/**
 * Reads each route's `config.rateLimit` when it is registered and adds a preHandler that counts
 * it (after the route's onRequest authentication, so the account is known, and after validation;
 * form routes before their body is read).
 * An API write route without one makes the app refuse to start: a new write cannot forget it.
 * Must be registered before the routes.
 */
export function registerRateLimits(
  app: FastifyInstance,
  rate: RateGuard,
  apiPrefix: string,
  /** The account's facts as the database has them now (the token check's may come from a memo). */
  freshFacts?: (userId: string) => Promise<AccountFacts | undefined>,
): void {
  const who = async (request: FastifyRequest) => ({ userId: request.user?.id, ip: request.ip, tier: await tierOf(request, freshFacts) });
  const limited: LimitedRoute[] = [];
  app.decorate('rateLimitedRoutes', limited);
  app.addHook('onRoute', (route) => {
    const policy = route.config?.rateLimit;
    if (!policy) {
      if (isApiWrite(route, apiPrefix)) {
        throw new Error(
          `${[route.method].flat().join(',')} ${route.url} has no config.rateLimit: name a policy of RATE_LIMITS in packages/core`,
        );
      }
      return;
    }
    const also = route.config?.rateLimitAlso;
    limited.push({ method: [route.method].flat().join(','), url: route.url, policy, ...(also ? { also: also.policy } : {}) });
    const limit = async (request: FastifyRequest) => {
      await rate.checkRequest(policy, await who(request));
    };
    const limitAlso = also
      ? async (request: FastifyRequest) => {
          if (also.when(request)) await rate.checkRequest(also.policy, await who(request));
        }
      : undefined;
    // A route that reads its body before validation (lib/form-body.ts) is counted before that, so
    // nothing is read for a client over its limit; every other route after validation.
    const preValidation = route.preValidation ? [route.preValidation].flat() : [];
    const existing = route.preHandler ? [route.preHandler].flat() : [];
    if (preValidation.some(readsBody)) {
      route.preValidation = [limit, ...preValidation];
      if (limitAlso) route.preHandler = [limitAlso, ...existing];
      return;
    }
    route.preHandler = [limit, ...(limitAlso ? [limitAlso] : []), ...existing];
  });
}

/**
 * The account's limit tier, from the facts read with its token. Those may come from the token
 * memo (lib/auth-state-memo.ts), which a first published post does not drop: an account old
 * enough whose facts say 'no post yet' is checked against the database, so only such writers
 * pay a read and nobody stays in the stricter tier after publishing.
 */
async function tierOf(
  request: FastifyRequest,
  freshFacts: ((userId: string) => Promise<AccountFacts | undefined>) | undefined,
): Promise<RateLimitTier> {
  const user = request.user;
  if (!user) return 'standard';
  const tier = accountTier(user.account);
  const oldEnough = Date.now() - Date.parse(user.account.createdAt) >= NEW_ACCOUNT_AGE_HOURS * 3600 * 1000;
  if (tier === 'standard' || !oldEnough || !freshFacts) return tier;
  const facts = await freshFacts(user.id);
  return facts ? accountTier(facts) : tier;
}
