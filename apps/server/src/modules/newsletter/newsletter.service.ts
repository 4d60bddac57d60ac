import { randomBytes } from 'node:crypto';
import { type DigestFrequency, NEWSLETTER_MESSAGES } from '@inkwell/core';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { hashToken, newLinkToken } from '../../lib/crypto';
import { badRequest, notFound } from '../../lib/errors';
import type { RateGuard } from '../../lib/rate-guard';
import { transact } from '../../lib/tx';
import type { MailService } from '../../mail/mail.service';
import { newsletterConfirmMail, type UnsubscribeLinks } from '../../mail/newsletter-templates';
import type { NewsletterRepository } from './newsletter.repo';

export interface NewsletterDeps {
  db: Kysely<Database>;
  newsletter: NewsletterRepository;
  mail: MailService;
  rate: RateGuard;
  publicUrl: string;
  /** Days a confirmation link works (unconfirmed subscriptions are deleted after them). */
  confirmDays: number;
}

/** A link token kept as is (it goes in every digest), unlike one-use links of which only a hash is kept. */
export const newUnsubscribeToken = () => randomBytes(32).toString('base64url');

/** Where a token's unsubscribe links point: the page (GET, with a button) and the API (one-click POST). */
export function unsubscribeLinks(publicUrl: string, token: string): UnsubscribeLinks {
  const t = encodeURIComponent(token);
  return { page: `${publicUrl}/newsletter/unsubscribe/${t}`, oneClick: `${publicUrl}/api/v1/newsletter/unsubscribe/${t}` };
}

/** The home page's newsletter form (double opt-in), its links, and readers' digest choice. */
export class NewsletterService {
  constructor(private readonly deps: NewsletterDeps) {}

  /**
   * Answers the same whatever the address's state (no enumeration). A new, pending or unsubscribed
   * address gets a confirmation mail, at most a few a day; a confirmed one gets nothing.
   */
  async subscribe(email: string): Promise<void> {
    const { db, newsletter, mail, rate, publicUrl, confirmDays } = this.deps;
    if (!(await rate.allowed('newsletter-mail', email))) return;
    const confirm = newLinkToken();
    const queued = await transact(db, async ({ db: trx }) => {
      const row = await newsletter.upsertPending(email, confirm.hash, newUnsubscribeToken(), trx);
      if (!row) return false;
      const confirmUrl = `${publicUrl}/newsletter/confirm/${confirm.token}`;
      await mail.enqueue(newsletterConfirmMail(email, confirmUrl, unsubscribeLinks(publicUrl, row.unsubscribe_token), confirmDays), trx);
      return true;
    });
    if (queued) mail.kick();
  }

  /** Opening the link again after confirming says confirmed again; an expired or replaced link is refused. */
  async confirm(token: string): Promise<void> {
    const row = await this.deps.newsletter.findByConfirmHash(hashToken(token));
    const expired = row && Date.parse(row.requested_at) < Date.now() - this.deps.confirmDays * 86400_000;
    if (!row || row.status === 'unsubscribed' || (row.status === 'pending' && expired))
      throw badRequest(NEWSLETTER_MESSAGES.badConfirmLink);
    if (row.status === 'pending') await this.deps.newsletter.confirm(row.id);
  }

  /** One link for both kinds of mail: a subscriber is unsubscribed, a reader's digest turned off. */
  async unsubscribe(token: string): Promise<void> {
    const { newsletter } = this.deps;
    if (await newsletter.unsubscribe(token)) return;
    if (await newsletter.digestOffByToken(token)) return;
    throw notFound(NEWSLETTER_MESSAGES.badUnsubscribeLink);
  }

  digestFrequency(userId: string): Promise<DigestFrequency> {
    return this.deps.newsletter.digestFrequency(userId);
  }

  async setDigestFrequency(userId: string, frequency: DigestFrequency): Promise<DigestFrequency> {
    await this.deps.newsletter.setDigestFrequency(userId, frequency, newUnsubscribeToken());
    return frequency;
  }
}
