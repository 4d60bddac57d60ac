import type { OutgoingMail } from './mail.repo';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function layout(title: string, intro: string, action: { label: string; url: string }, outro: string) {
  const text = `${intro}\n\n${action.label}: ${action.url}\n\n${outro}\n`;
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111">
<h2>${escapeHtml(title)}</h2><p>${escapeHtml(intro)}</p>
<p><a href="${escapeHtml(action.url)}" style="display:inline-block;padding:10px 18px;background:#4f46e5;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(action.label)}</a></p>
<p style="color:#555;font-size:14px">${escapeHtml(outro)}</p></body></html>`;
  return { text, html };
}

export function verificationMail(to: string, name: string, url: string): OutgoingMail {
  return {
    to,
    subject: 'Verify your email address',
    ...layout(
      'Verify your email',
      `Hi ${name}, welcome! Please confirm that ${to} is your email address.`,
      { label: 'Verify email', url },
      'This link expires in 24 hours. If you did not sign up, you can ignore this email.',
    ),
  };
}
