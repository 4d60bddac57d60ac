import { describe, expect, it } from 'vitest';
import { accountTier, NEW_ACCOUNT_AGE_HOURS, RATE_LIMITS, rateLimitFor, rateLimitMessage } from './rateLimits';

describe('rate limits', () => {
  it('allows comments and replies as Forem does (9 per 30 s) and follows 500 a day', () => {
    expect(RATE_LIMITS.comment).toMatchObject({ windowSeconds: 30, perUser: 9 });
    expect(RATE_LIMITS.follow).toMatchObject({ windowSeconds: 24 * 3600, perUser: 500 });
  });

  it('resolves a count for the standard tier and nothing for a scope the policy does not count', () => {
    expect(rateLimitFor('comment', 'perUser')).toBe(9);
    expect(rateLimitFor('comment', 'perKey')).toBeUndefined();
    expect(rateLimitFor('transfer-mail', 'perKey', 'standard')).toBe(5);
  });

  it('says what was too fast and how long to wait, in the unit a person reads', () => {
    expect(rateLimitMessage('comment', 1)).toBe('You are commenting too quickly. Please try again in 1 second.');
    expect(rateLimitMessage('comment', 29.2)).toBe('You are commenting too quickly. Please try again in 30 seconds.');
    expect(rateLimitMessage('signin', 900)).toBe('Too many attempts. Please try again in 15 minutes.');
    expect(rateLimitMessage('follow', 20 * 3600)).toBe('You have followed too many people today. Please try again in 20 hours.');
  });

  it('puts an account in the new-account tier while it is younger than a day or has published nothing', () => {
    const now = Date.parse('2026-11-25T12:00:00Z');
    const hoursAgo = (h: number) => new Date(now - h * 3600 * 1000).toISOString();
    expect(NEW_ACCOUNT_AGE_HOURS).toBe(24);
    expect(accountTier({ createdAt: hoursAgo(0), publishedCount: 0 }, now)).toBe('new-account');
    expect(accountTier({ createdAt: hoursAgo(1), publishedCount: 5 }, now)).toBe('new-account');
    expect(accountTier({ createdAt: hoursAgo(23.9), publishedCount: 1 }, now)).toBe('new-account');
    expect(accountTier({ createdAt: hoursAgo(48), publishedCount: 0 }, now)).toBe('new-account');
    expect(accountTier({ createdAt: hoursAgo(24), publishedCount: 1 }, now)).toBe('standard');
    expect(accountTier({ createdAt: 'not a date', publishedCount: 3 }, now)).toBe('new-account');
  });

  it('gives new accounts fewer blogs, link comments and follows, and keeps the standard counts otherwise', () => {
    for (const name of ['post', 'comment-link', 'follow'] as const) {
      const tier = rateLimitFor(name, 'perUser', 'new-account')!;
      expect(tier, name).toBeGreaterThan(0);
      expect(tier, name).toBeLessThan(rateLimitFor(name, 'perUser') ?? Number.POSITIVE_INFINITY);
      // Per address, a new account counts like anyone else.
      expect(rateLimitFor(name, 'perIp', 'new-account')).toBe(rateLimitFor(name, 'perIp'));
    }
    // Links in comments of established accounts count only against the comment limit.
    expect(rateLimitFor('comment-link', 'perUser')).toBeUndefined();
    expect(rateLimitFor('comment', 'perUser', 'new-account')).toBe(9);
  });

  it("says why a new account's limit is lower and until when, with the tier's own count", () => {
    const count = rateLimitFor('post', 'perUser', 'new-account');
    expect(rateLimitMessage('post', 3000, { tier: 'new-account', scope: 'perUser' })).toBe(
      `New accounts can create ${count} blogs an hour until they are 24 hours old and have published a blog. Please try again in 50 minutes.`,
    );
    // The address's count (the same for every tier) keeps the policy's own sentence.
    expect(rateLimitMessage('post', 60, { tier: 'new-account', scope: 'perIp' })).toBe(
      'You are creating blogs too quickly. Please try again in 60 seconds.',
    );
    // With RATE_LIMIT_FACTOR the server passes the count in force.
    expect(rateLimitMessage('post', 60, { tier: 'new-account', scope: 'perUser', count: 1 })).toMatch(
      /^New accounts can create 1 blog an hour until/,
    );
    expect(rateLimitMessage('follow', 3600, { tier: 'new-account', scope: 'perUser' })).toMatch(
      /^New accounts can follow or unfollow \d+ times a day/,
    );
    expect(rateLimitMessage('comment-link', 60, { tier: 'new-account', scope: 'perUser' })).toMatch(
      /^New accounts can post \d+ comments with links an hour/,
    );
  });
});
