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

export function createRedisRateLimiter(redis: Redis, prefix = 'rl:'): RateLimiter {
  return {
    async hit(key, limit, windowSeconds) {
      const k = prefix + key;
      const result = await redis.multi().incr(k).pttl(k).exec();
      const count = Number(result?.[0]?.[1] ?? 0);
      let ttl = Number(result?.[1]?.[1] ?? -1);
      if (ttl < 0) {
        await redis.pexpire(k, windowSeconds * 1000);
        ttl = windowSeconds * 1000;
      }
      return { allowed: count <= limit, retryAfterSeconds: ttl / 1000 };
    },
    async close() {},
  };
}
