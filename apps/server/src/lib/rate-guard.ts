import { tooManyRequests } from './errors';
import type { RateLimiter } from './rate-limiter';

/** Named limits: how many hits per window, per key (an IP or an e-mail address). */
export const RATE_POLICIES = {
  'signup-ip': { limit: 10, windowSeconds: 3600 },
  'signup-email': { limit: 5, windowSeconds: 3600 },
  'signin-ip': { limit: 30, windowSeconds: 900 },
  'signin-email': { limit: 10, windowSeconds: 900 },
  'verify-mail': { limit: 3, windowSeconds: 3600 },
  'transfer-mail': { limit: 5, windowSeconds: 3600 },
  'google-ip': { limit: 30, windowSeconds: 900 },
  'upload-user': { limit: 120, windowSeconds: 3600 },
} as const;

export type RatePolicy = keyof typeof RATE_POLICIES;

export class RateGuard {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly factor = 1,
  ) {}

  /** Counts a hit and throws 429 with Retry-After when over the limit. */
  async check(policy: RatePolicy, key: string): Promise<void> {
    const { limit, windowSeconds } = RATE_POLICIES[policy];
    const r = await this.limiter.hit(`${policy}:${key.toLowerCase()}`, Math.ceil(limit * this.factor), windowSeconds);
    if (!r.allowed) throw tooManyRequests(r.retryAfterSeconds);
  }

  /** Counts a hit and says whether it was within the limit (for best-effort sends). */
  async allowed(policy: RatePolicy, key: string): Promise<boolean> {
    const { limit, windowSeconds } = RATE_POLICIES[policy];
    const r = await this.limiter.hit(`${policy}:${key.toLowerCase()}`, Math.ceil(limit * this.factor), windowSeconds);
    return r.allowed;
  }
}
