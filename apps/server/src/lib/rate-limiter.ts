import type { Redis } from 'ioredis';

export interface RateLimitResult {
  allowed: boolean;
  retryAfterSeconds: number;
}

/** Fixed-window counter. Shared through Redis when configured so every instance sees the same counts. */
export interface RateLimiter {
  hit(key: string, limit: number, windowSeconds: number): Promise<RateLimitResult>;
  close(): Promise<void>;
}

export function createMemoryRateLimiter(): RateLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [key, w] of windows) if (w.resetAt <= now) windows.delete(key);
  }, 60_000);
  sweep.unref();
  return {
    async hit(key, limit, windowSeconds) {
      const now = Date.now();
      let w = windows.get(key);
      if (!w || w.resetAt <= now) {
        w = { count: 0, resetAt: now + windowSeconds * 1000 };
        windows.set(key, w);
      }
      w.count++;
      return { allowed: w.count <= limit, retryAfterSeconds: (w.resetAt - now) / 1000 };
    },
    async close() {
      clearInterval(sweep);
      windows.clear();
    },
  };
}

/**
 * INCR, and PEXPIRE when the key has no expiry yet, in one atomic script: one command per hit
 * (MULTI/INCR/PTTL/EXEC was four, and about a third of the throughput).
 */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return { count, ttl }`;

type WithHit = Redis & { inkwellRateHit(key: string, windowMs: number): Promise<[number, number]> };

export function createRedisRateLimiter(redis: Redis, prefix = 'rl:'): RateLimiter {
  redis.defineCommand('inkwellRateHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
  const client = redis as WithHit;
  return {
    async hit(key, limit, windowSeconds) {
      const [count, ttl] = await client.inkwellRateHit(prefix + key, windowSeconds * 1000);
      return { allowed: Number(count) <= limit, retryAfterSeconds: Number(ttl) / 1000 };
    },
    async close() {},
  };
}
