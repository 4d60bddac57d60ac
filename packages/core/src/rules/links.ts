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
