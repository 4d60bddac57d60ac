import type { DigestPost } from '../modules/newsletter/digest.repo';
import type { OutgoingMail } from './mail.repo';
import { escapeHtml, layout } from './templates';

/** Where a mail's unsubscribe links lead: a page with a button (GET) and the one-click address (POST). */
export interface UnsubscribeLinks {
  page: string;
  oneClick: string;
}

/**
 * RFC 8058: a mail client shows its own Unsubscribe button and POSTs
 * 'List-Unsubscribe=One-Click' to this address, which unsubscribes at once without a page.
 */
export function unsubscribeHeaders(links: UnsubscribeLinks): Record<string, string> {
  return { 'List-Unsubscribe': `<${links.oneClick}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

/** Double opt-in: the only mail an address gets before it is confirmed. */
export function newsletterConfirmMail(to: string, confirmUrl: string, links: UnsubscribeLinks, validDays: number): OutgoingMail {
  const mail = layout(
    'Confirm your subscription',
    `Someone (hopefully you) asked to get Inkwell's weekly digest of the most-liked posts at ${to}. Nothing is sent until you confirm.`,
    { label: 'Confirm subscription', url: confirmUrl },
    `This link works for ${validDays} days. If you did not ask for this, ignore this email: you will get nothing more. Unsubscribe: ${links.page}`,
  );
  return { to, subject: 'Confirm your subscription to the Inkwell digest', ...mail, headers: unsubscribeHeaders(links) };
}

export interface DigestMailInput {
  to: string;
  subject: string;
  heading: string;
  intro: string;
  posts: DigestPost[];
  postUrl: (blogId: string) => string;
  links: UnsubscribeLinks;
  /** Why this address gets the mail, beside the unsubscribe link. */
  reason: string;
}

/** A digest: a list of posts with links, and an unsubscribe link in the text, the HTML and the headers. */
export function digestMail(input: DigestMailInput): OutgoingMail {
  const { posts, postUrl, links } = input;
  const by = (p: DigestPost) => (p.author ? ` by ${p.author}` : '');
  const textPosts = posts.map((p) => `- ${p.title}${by(p)}\n  ${p.description}\n  ${postUrl(p.blog_id)}`).join('\n\n');
  const text = `${input.intro}\n\n${textPosts}\n\n${input.reason} Unsubscribe: ${links.page}\n`;
  const htmlPosts = posts
    .map(
      (p) =>
        `<li style="margin-bottom:16px"><a href="${escapeHtml(postUrl(p.blog_id))}" style="font-weight:600;color:#4f46e5">${escapeHtml(p.title)}</a>${escapeHtml(by(p))}<br><span style="color:#444">${escapeHtml(p.description)}</span></li>`,
    )
    .join('');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111">
<h2>${escapeHtml(input.heading)}</h2><p>${escapeHtml(input.intro)}</p><ul style="padding-left:18px">${htmlPosts}</ul>
<p style="color:#555;font-size:14px">${escapeHtml(input.reason)} <a href="${escapeHtml(links.page)}">Unsubscribe</a></p></body></html>`;
  return { to: input.to, subject: input.subject, text, html, headers: unsubscribeHeaders(links) };
}
