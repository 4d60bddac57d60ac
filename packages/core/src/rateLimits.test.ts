import { describe, expect, it } from 'vitest';
import { RATE_LIMITS, rateLimitFor, rateLimitMessage } from './rateLimits';

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
});
