import type { OutgoingMail } from './mail.repo';

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function layout(title: string, intro: string, action: { label: string; url: string }, outro: string) {
  const text = `${intro}\n\n${action.label}: ${action.url}\n\n${outro}\n`;
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111">
<h2>${escapeHtml(title)}</h2><p>${escapeHtml(intro)}</p>
<p><a href="${escapeHtml(action.url)}" style="display:inline-block;padding:10px 18px;background:#4f46e5;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(action.label)}</a></p>
<p style="color:#555;font-size:14px">${escapeHtml(outro)}</p></body></html>`;
  return { text, html };
}

const mailTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeStyle: 'short', timeZone: 'UTC' });
/** '24 November 2026 at 20:31 UTC': the reader compares it with when they acted. */
export const formatMailTime = (iso: string) => `${mailTime.format(new Date(iso))} UTC`;

/** One mail per sign-up; its time lets the mailbox owner tell their own sign-up from a stranger's. */
export function verificationMail(to: string, name: string, url: string, signedUpAt: string): OutgoingMail {
  return {
    to,
    subject: 'Verify your email address',
    ...layout(
      'Verify your email',
      `Hi ${name}, welcome! Please confirm that ${to} is your email address. This link is for the sign-up made on ${formatMailTime(signedUpAt)}; opening it activates the name and password chosen then.`,
      { label: 'Verify email', url },
      'This link expires in 24 hours. If you did not sign up at that time, do not open it: someone else may have used your address. You can ignore this email.',
    ),
  };
}

/** Sign-up answers the same for a registered address; the owner is told instead of the stranger. */
export function signupAttemptMail(to: string, name: string, urls: { signin: string; reset: string }, googleOnly: boolean): OutgoingMail {
  return {
    to,
    subject: 'Someone tried to sign up with your email address',
    ...layout(
      'You already have an account',
      `Hi ${name}, someone tried to sign up with ${to} on ${formatMailTime(new Date().toISOString())}, but this address already has an account. ${
        googleOnly ? 'You sign in with Google.' : 'If it was you, sign in, or reset your password if you forgot it.'
      }`,
      googleOnly ? { label: 'Sign in', url: urls.signin } : { label: 'Reset your password', url: urls.reset },
      googleOnly
        ? 'If it was not you, you can ignore this email: nothing has changed.'
        : `Sign in: ${urls.signin}. If it was not you, you can ignore this email: nothing has changed.`,
    ),
  };
}

export function passwordResetMail(to: string, name: string, url: string): OutgoingMail {
  return {
    to,
    subject: 'Reset your password',
    ...layout(
      'Reset your password',
      `Hi ${name}, someone (hopefully you) asked to reset the password of ${to} on ${formatMailTime(new Date().toISOString())}.`,
      { label: 'Choose a new password', url },
      'This link works once and expires in 1 hour. Resetting signs you out on every device. If you did not ask for it, ignore this email: your password stays as it is.',
    ),
  };
}

/** Forgot password for an account that has no password: it signs in with Google. */
export function googleAccountResetMail(to: string, name: string, signinUrl: string): OutgoingMail {
  return {
    to,
    subject: 'You sign in with Google',
    ...layout(
      'Your account uses Google sign-in',
      `Hi ${name}, someone asked to reset the password of ${to}, but this account has no password: you sign in with Google.`,
      { label: 'Continue with Google', url: signinUrl },
      'If you did not ask for this, you can ignore this email.',
    ),
  };
}

/** A mail with a choice of two links (accept or reject), both printed in the text part too. */
function choiceLayout(title: string, intro: string, actions: { label: string; url: string }[], outro: string) {
  const text = `${intro}\n\n${actions.map((a) => `${a.label}: ${a.url}`).join('\n\n')}\n\n${outro}\n`;
  const buttons = actions
    .map(
      (a, i) =>
        `<a href="${escapeHtml(a.url)}" style="display:inline-block;margin-right:8px;padding:10px 18px;background:${i === 0 ? '#4f46e5' : '#6b7280'};color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(a.label)}</a>`,
    )
    .join('');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111">
<h2>${escapeHtml(title)}</h2><p>${escapeHtml(intro)}</p><p>${buttons}</p>
<p style="color:#555;font-size:14px">${escapeHtml(outro)}</p></body></html>`;
  return { text, html };
}

/** To the recipient of an account transfer: accept or reject links (48 hours). */
export function transferRequestMail(
  to: string,
  sender: { name: string; username: string },
  links: { accept: string; reject: string },
): OutgoingMail {
  return {
    to,
    subject: `${sender.name} wants to transfer their account to you`,
    ...choiceLayout(
      'Account transfer request',
      `${sender.name} (@${sender.username}) wants to transfer their account to you: their blogs, comments, likes, saves and followers would become yours, and their account would be deleted.`,
      [
        { label: 'Accept transfer', url: links.accept },
        { label: 'Reject transfer', url: links.reject },
      ],
      'These links expire in 48 hours. If you do not know this person, reject the request or ignore this email.',
    ),
  };
}

/** To the sender, when the request is made: a record of it, and a warning if it was not them. */
export function transferNoticeMail(to: string, name: string, recipientEmail: string, settingsUrl: string): OutgoingMail {
  return {
    to,
    subject: 'You requested an account transfer',
    ...layout(
      'Account transfer requested',
      `Hi ${name}, you asked to transfer your account to ${recipientEmail}. If they accept within 48 hours, everything you own moves to them and your account is deleted.`,
      { label: 'Open settings', url: settingsUrl },
      'If this was not you, change your password now; the request ends if it is not accepted.',
    ),
  };
}

/** To the sender, once the recipient answered. */
export function transferResultMail(to: string, name: string, recipientEmail: string, accepted: boolean, homeUrl: string): OutgoingMail {
  return {
    to,
    subject: accepted ? 'Your account was transferred' : 'Your account transfer was rejected',
    ...layout(
      accepted ? 'Account transferred' : 'Transfer rejected',
      accepted
        ? `Hi ${name}, ${recipientEmail} accepted your transfer. Your blogs, comments and followers are now theirs, and your account has been deleted.`
        : `Hi ${name}, ${recipientEmail} rejected your account transfer. Nothing has changed.`,
      { label: 'Go to the site', url: homeUrl },
      'Thank you for writing with us.',
    ),
  };
}
