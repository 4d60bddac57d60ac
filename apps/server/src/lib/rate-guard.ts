import { RATE_LIMITS, type RateLimitName, type RateLimitScope, type RateLimitTier, rateLimitFor, rateLimitMessage } from '@inkwell/core';
import { tooManyRequests } from './errors';
import type { RateLimiter } from './rate-limiter';

/** The one guard over packages/core's RATE_LIMITS: counts hits and answers 429 with Retry-After. */
export class RateGuard {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly factor = 1,
  ) {}

  /** For a service: counts a hit of the policy's perKey limit for a key only it knows (an address, an account). */
  async check(policy: RateLimitName, key: string): Promise<void> {
    await this.count(policy, 'perKey', key.toLowerCase());
  }

  /** For a best-effort send: counts a perKey hit and says whether it was within the limit. */
  async allowed(policy: RateLimitName, key: string): Promise<boolean> {
    return (await this.hit(policy, 'perKey', key.toLowerCase(), 'standard')) === null;
  }

  /** For the route hook: counts the request against the policy's per-account and per-IP limits. */
  async checkRequest(policy: RateLimitName, who: { userId?: string | null; ip: string; tier?: RateLimitTier }): Promise<void> {
    const tier = who.tier ?? 'standard';
    // Both counters at once: with Redis that is one round trip of waiting, not two.
    const [byUser, byIp] = await Promise.all([
      who.userId ? this.hit(policy, 'perUser', who.userId, tier) : null,
      this.hit(policy, 'perIp', who.ip, tier),
    ]);
    const retryAfter = Math.max(byUser ?? 0, byIp ?? 0);
    if (retryAfter > 0) {
      // The message names the count that was reached: the account's (which may be its tier's) or the address's.
      const scope = (byUser ?? 0) >= (byIp ?? 0) ? 'perUser' : 'perIp';
      throw tooManyRequests(retryAfter, rateLimitMessage(policy, retryAfter, { tier, scope, count: this.limitOf(policy, scope, tier) }));
    }
  }

  private async count(policy: RateLimitName, scope: RateLimitScope, key: string, tier: RateLimitTier = 'standard'): Promise<void> {
    const retryAfter = await this.hit(policy, scope, key, tier);
    if (retryAfter !== null) throw tooManyRequests(retryAfter, rateLimitMessage(policy, retryAfter));
  }

  /** The count in force for a scope and tier (after the factor); undefined when the policy does not count it. */
  private limitOf(policy: RateLimitName, scope: RateLimitScope, tier: RateLimitTier): number | undefined {
    const limit = rateLimitFor(policy, scope, tier);
    return limit === undefined ? undefined : Math.ceil(limit * this.factor);
  }

  /** null when allowed (or the policy does not count this scope), else the seconds until the window resets. */
  private async hit(policy: RateLimitName, scope: RateLimitScope, key: string, tier: RateLimitTier): Promise<number | null> {
    const limit = this.limitOf(policy, scope, tier);
    if (limit === undefined) return null;
    const { windowSeconds } = RATE_LIMITS[policy];
    const r = await this.limiter.hit(`${policy}:${SCOPE_TAG[scope]}${key}`, limit, windowSeconds);
    return r.allowed ? null : Math.max(1, Math.ceil(r.retryAfterSeconds));
  }
}

/** Keeps the counters of one policy's scopes apart in the limiter's key space. */
const SCOPE_TAG: Record<RateLimitScope, string> = { perUser: 'u:', perIp: 'ip:', perKey: '' };
