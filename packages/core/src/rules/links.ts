/** Editor link rule (SPEC.md 5): no protocol gets http:// unless it starts with /, # or //. */
export function normalizeLink(raw: string): { ok: true; href: string | null } | { ok: false; error: string } {
  const link = raw.trim();
  if (!link) return { ok: true, href: null };
  if (/\s/.test(link)) return { ok: false, error: 'Pasted link is not valid.' };
  if (/^(\/|#)/.test(link) || /^[a-z][a-z0-9+.-]*:/i.test(link)) return { ok: true, href: link };
  return { ok: true, href: `http://${link}` };
}

/** Avatar fallback: an initials avatar seeded by the name (SPEC.md 7, generated locally). */
export function initials(name: string | null | undefined): string {
  const parts = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return '?';
  const first = parts[0]?.[0] ?? '';
  const last = parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? '') : '';
  return (first + last).toUpperCase();
}

/**
 * Backgrounds of the generated initials avatar. Each keeps white initials at 4.5:1 or more
 * (WCAG AA for small text): the 600/700 shades of Tailwind's palette, never lighter ones.
 */
export const AVATAR_COLOURS = ['#4f46e5', '#0e7490', '#047857', '#b45309', '#b91c1c', '#be185d', '#7c3aed', '#1d4ed8'] as const;

/** A stable colour seeded by the name, so the same person keeps the same avatar (web app and server pages). */
export function avatarColour(seed: string): string {
  let hash = 0;
  for (let i = 0; i < seed.length; i++) hash = (hash * 31 + seed.charCodeAt(i)) | 0;
  return AVATAR_COLOURS[Math.abs(hash) % AVATAR_COLOURS.length] ?? AVATAR_COLOURS[0];
}

/**
 * Whether plain text (a comment) carries a link a reader could follow: a URL with a scheme, a
 * `www.` address, a bare domain followed by a path, or an HTML anchor. Bare names such as
 * `node.js` are not links, so writing about a library never counts as one. Used by the
 * new-account limit on comments with links (RATE_LIMITS['comment-link']).
 */
export function containsLink(text: string): boolean {
  return (
    /\b[a-z][a-z0-9+.-]*:\/\/\S/i.test(text) ||
    /(^|[^\w.-])www\.[a-z0-9-]+\.[a-z]/i.test(text) ||
    /\b[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}\/\S/i.test(text) ||
    /<a\s[^>]*href/i.test(text)
  );
}
