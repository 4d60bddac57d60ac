import { z } from 'zod';
import { emailField } from './auth';

/** The newsletter and the followed-authors digest (issue 16). */

export const DIGEST_FREQUENCIES = ['off', 'daily', 'weekly'] as const;
export type DigestFrequency = (typeof DIGEST_FREQUENCIES)[number];

export const NEWSLETTER_MESSAGES = {
  /** The same answer for a new, pending, confirmed or unsubscribed address: no address enumeration. */
  subscribed: 'Check your inbox to confirm your subscription.',
  confirmed: 'Your subscription is confirmed. The weekly digest is on its way every Monday.',
  badConfirmLink: 'This confirmation link is invalid or has expired. Please subscribe again.',
  unsubscribed: 'You have been unsubscribed. You will get no more digests.',
  badUnsubscribeLink: 'This unsubscribe link is invalid.',
  digestSaved: 'Digest settings saved',
} as const;

export const newsletterSubscribeBody = z.object({ email: emailField });
export type NewsletterSubscribeBody = z.input<typeof newsletterSubscribeBody>;

/** Tokens of confirmation and unsubscribe links (base64url, 43 characters when made here). */
export const newsletterToken = z.string({ error: 'Token is required' }).trim().min(1, 'Token is required').max(200, 'Token is too long');
export const newsletterConfirmBody = z.object({ token: newsletterToken });
export const newsletterTokenParams = z.object({ token: newsletterToken });

export const digestFrequencyField = z.enum(DIGEST_FREQUENCIES, { error: 'Digest must be off, daily or weekly' });
export const digestSettingsBody = z.object({ frequency: digestFrequencyField });
export type DigestSettingsBody = z.input<typeof digestSettingsBody>;

export const digestSettingsResponse = z.object({
  success: z.literal(true),
  message: z.string().optional(),
  frequency: digestFrequencyField,
});
export type DigestSettingsResponse = z.infer<typeof digestSettingsResponse>;
