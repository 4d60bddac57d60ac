/**
 * Every rate limit of the API, in one table (server-enforced; RATE_LIMIT_FACTOR scales them all).
 *
 * A policy counts hits in a fixed window, separately for each key it names:
 * - `perUser` and `perIp`: counted by the server's route hook for every write route whose
 *   `config.rateLimit` names the policy (the signed-in account and the client's IP address);
 * - `perKey`: counted by a service for a key only it knows (an e-mail address, a mail budget).
 *
 * Tiers: `tiers` overrides the counts for an account tier, with its own 429 sentence;
 * `rateLimitFor` resolves a count for a tier and falls back to the policy's own. `accountTier`
 * says which tier an account is in. Adding a tier is a new name in RateLimitTier, a rule in
 * accountTier and a `tiers` entry on the policies it changes.
 */

/**
 * `new-account` (issue 15): younger than NEW_ACCOUNT_AGE_HOURS, or no published blog yet. Both must
 * be behind an account before it writes at the standard pace: a spam account that publishes one
 * blog in its first minute is still slow for a day, and one that never publishes stays slow.
 */
export type RateLimitTier = 'standard' | 'new-account';

export const NEW_ACCOUNT_AGE_HOURS = 24;

/** What the tier depends on: read with the session's token check, so it costs no extra query. */
export interface AccountFacts {
  /** ISO-8601 time of the account's creation. */
  createdAt: string;
  /** Published blogs (drafts and scheduled ones do not count). */
  publishedCount: number;
}

/** The limit tier of an account at a time. */
export function accountTier(facts: AccountFacts, now: number = Date.now()): RateLimitTier {
  const age = now - Date.parse(facts.createdAt);
  // An unreadable date is treated as new: the stricter side is the safe one.
  if (!(age >= NEW_ACCOUNT_AGE_HOURS * 3600 * 1000)) return 'new-account';
  return facts.publishedCount > 0 ? 'standard' : 'new-account';
}

export interface RateLimitTierCounts extends RateLimitCounts {
  /** The first sentence of the 429 message when this tier's count was the one reached, with that count (after RATE_LIMIT_FACTOR). */
  message: (count: number) => string;
}

export interface RateLimitCounts {
  perUser?: number;
  perIp?: number;
  perKey?: number;
}

export interface RateLimitPolicy extends RateLimitCounts {
  windowSeconds: number;
  /** The first sentence of the 429 message; the wait is appended. */
  message: string;
  tiers?: Partial<Record<Exclude<RateLimitTier, 'standard'>, RateLimitTierCounts>>;
}

const MINUTE = 60;
const HOUR = 3600;
const DAY = 24 * HOUR;
const TOO_MANY = 'Too many attempts.';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** A new-account tier of `perUser` per window; the sentence says why and until when. */
function newAccounts(perUser: number, what: (n: number) => string): RateLimitTierCounts {
  return {
    perUser,
    message: (n) => `New accounts can ${what(n)} until they are ${NEW_ACCOUNT_AGE_HOURS} hours old and have published a blog.`,
  };
}

export const RATE_LIMITS = {
  // Sign-up, sign-in and mail (per IP in the route hook; per address or account in the services).
  signup: { windowSeconds: HOUR, perIp: 10, message: TOO_MANY },
  'signup-email': { windowSeconds: HOUR, perKey: 5, message: TOO_MANY },
  'verify-mail': { windowSeconds: HOUR, perKey: 3, message: TOO_MANY },
  signin: { windowSeconds: 15 * MINUTE, perIp: 30, message: TOO_MANY },
  // Wrong passwords lock one (address, IP) pair; the looser per-address limit with a short window
  // stops guessing spread over many IPs without letting a stranger lock the owner out for long.
  'signin-email-ip': { windowSeconds: 15 * MINUTE, perKey: 10, message: TOO_MANY },
  'signin-email': { windowSeconds: 5 * MINUTE, perKey: 60, message: TOO_MANY },
  /** "Someone tried to sign up with your address" mails to the owner of a registered address. */
  'signup-attempt-mail': { windowSeconds: HOUR, perKey: 3, message: TOO_MANY },
  'forgot-password': { windowSeconds: HOUR, perIp: 20, message: TOO_MANY },
  'forgot-password-email': { windowSeconds: HOUR, perKey: 3, message: TOO_MANY },
  'reset-password': { windowSeconds: HOUR, perIp: 30, message: TOO_MANY },
  /** The links mailed to confirm something (an address, an account transfer): GETs that change data. */
  'confirm-link': { windowSeconds: HOUR, perIp: 60, message: TOO_MANY },
  google: { windowSeconds: 15 * MINUTE, perIp: 30, message: TOO_MANY },
  'signout-everywhere': { windowSeconds: HOUR, perUser: 10, perIp: 30, message: TOO_MANY },
  /** Change password and delete account check the current password: this also caps guesses. */
  password: { windowSeconds: 15 * MINUTE, perUser: 5, perIp: 15, message: TOO_MANY },
  transfer: { windowSeconds: HOUR, perUser: 10, perIp: 30, message: TOO_MANY },
  'transfer-mail': { windowSeconds: HOUR, perKey: 5, message: TOO_MANY },

  // Images: requests per IP in the route hook; every stored image per account in the uploads service.
  upload: { windowSeconds: HOUR, perIp: 360, message: 'You are uploading images too quickly.' },
  image: { windowSeconds: HOUR, perKey: 120, message: 'You are uploading images too quickly.' },

  // Writing and reacting. Comments as Forem (9 per 30 s), follows as Forem (500 a day).
  comment: { windowSeconds: 30, perUser: 9, perIp: 27, message: 'You are commenting too quickly.' },
  /**
   * Counted, besides `comment`, for a comment or reply that contains a link (containsLink): only new
   * accounts have a count, so an established account's links are limited by `comment` alone.
   */
  'comment-link': {
    windowSeconds: HOUR,
    message: 'You are posting links in comments too quickly.',
    tiers: { 'new-account': newAccounts(3, (n) => `post ${plural(n, 'comment', 'comments')} with links an hour`) },
  },
  'comment-edit': { windowSeconds: MINUTE, perUser: 30, perIp: 90, message: 'You are changing comments too quickly.' },
  like: { windowSeconds: MINUTE, perUser: 30, perIp: 90, message: 'You are liking too quickly.' },
  save: { windowSeconds: MINUTE, perUser: 30, perIp: 90, message: 'You are saving blogs too quickly.' },
  follow: {
    windowSeconds: DAY,
    perUser: 500,
    perIp: 1500,
    message: 'You have followed too many people today.',
    tiers: { 'new-account': newAccounts(30, (n) => `follow or unfollow ${plural(n, 'time', 'times')} a day`) },
  },
  /** Block, unblock, mute and unmute (issue 15). */
  block: { windowSeconds: HOUR, perUser: 100, perIp: 300, message: 'You are blocking or muting too quickly.' },
  /** Reports and moderator actions (issue 15): generous for a moderator clearing a spam wave, low enough to stop a script. */
  report: { windowSeconds: HOUR, perUser: 30, perIp: 90, message: 'You are sending reports too quickly.' },
  moderation: { windowSeconds: 10 * MINUTE, perUser: 300, perIp: 900, message: 'You are taking moderation actions too quickly.' },
  /** Creating a blog (POST /blogs, or the first autosave of a new one). */
  post: {
    windowSeconds: HOUR,
    perUser: 20,
    perIp: 60,
    message: 'You are creating blogs too quickly.',
    tiers: { 'new-account': newAccounts(3, (n) => `create ${plural(n, 'blog', 'blogs')} an hour`) },
  },
  'post-edit': { windowSeconds: 10 * MINUTE, perUser: 60, perIp: 180, message: 'You are changing blogs too quickly.' },
  // Autosave runs a few seconds after typing stops, from every open editor tab: generous.
  autosave: { windowSeconds: 10 * MINUTE, perUser: 600, perIp: 1800, message: 'You are saving drafts too quickly.' },
  'revision-restore': { windowSeconds: 10 * MINUTE, perUser: 30, perIp: 90, message: 'You are restoring versions too quickly.' },
  series: { windowSeconds: 10 * MINUTE, perUser: 60, perIp: 180, message: 'You are changing series too quickly.' },
  profile: { windowSeconds: 10 * MINUTE, perUser: 20, perIp: 60, message: 'You are changing your profile too quickly.' },
  notification: { windowSeconds: MINUTE, perUser: 60, perIp: 180, message: 'You are changing notifications too quickly.' },
  /** 'Download my data' reads a whole account: a few a day is plenty. */
  export: { windowSeconds: HOUR, perUser: 5, perIp: 20, message: 'You are downloading your data too often.' },

  // Newsletter (issue 16): the home page's form per IP; confirmation mails per address (over it the
  // answer stays the same and no mail goes out, so the limit tells nothing about the address);
  // confirm and unsubscribe links per IP; the Settings digest choice per account.
  newsletter: { windowSeconds: HOUR, perIp: 10, message: TOO_MANY },
  'newsletter-mail': { windowSeconds: DAY, perKey: 3, message: TOO_MANY },
  'newsletter-link': { windowSeconds: HOUR, perIp: 60, message: TOO_MANY },
  digest: { windowSeconds: 10 * MINUTE, perUser: 30, perIp: 90, message: 'You are changing your digest settings too quickly.' },
} as const satisfies Record<string, RateLimitPolicy>;

export type RateLimitName = keyof typeof RATE_LIMITS;
export type RateLimitScope = keyof RateLimitCounts;

/** The count of one scope for a tier, before RATE_LIMIT_FACTOR; undefined when the policy does not count that scope. */
export function rateLimitFor(name: RateLimitName, scope: RateLimitScope, tier: RateLimitTier = 'standard'): number | undefined {
  const policy: RateLimitPolicy = RATE_LIMITS[name];
  return tierCounts(name, tier)?.[scope] ?? policy[scope];
}

/** The tier's own entry on a policy; undefined for the standard tier or a policy the tier does not change. */
function tierCounts(name: RateLimitName, tier: RateLimitTier): RateLimitTierCounts | undefined {
  const policy: RateLimitPolicy = RATE_LIMITS[name];
  return tier === 'standard' ? undefined : policy.tiers?.[tier];
}

function waitText(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 90) return `${s} second${s === 1 ? '' : 's'}`;
  const m = Math.ceil(s / MINUTE);
  if (m < 90) return `${m} minutes`;
  const h = Math.ceil(s / HOUR);
  return `${h} hours`;
}

/**
 * The 429 message: what was too fast (or, when a tier's own count was reached, why this account
 * has a lower one, with the count in force: `count`, else the table's) and how long to wait (the
 * same wait as Retry-After).
 */
export function rateLimitMessage(
  name: RateLimitName,
  retryAfterSeconds: number,
  reached: { tier: RateLimitTier; scope: RateLimitScope; count?: number } = { tier: 'standard', scope: 'perUser' },
): string {
  const own = tierCounts(name, reached.tier);
  const count = own?.[reached.scope];
  const first = own && count !== undefined ? own.message(reached.count ?? count) : RATE_LIMITS[name].message;
  return `${first} Please try again in ${waitText(retryAfterSeconds)}.`;
}
