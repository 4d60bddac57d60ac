/**
 * URL rules of the reading page, kept free of the DOM so they can be unit-tested in node.
 * Anything that is not clearly safe is refused: whitespace, control and invisible format
 * characters anywhere (browsers strip some of them, turning 'java\tscript:' into a scheme),
 * and every scheme except the allowed ones.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what must be refused in a URL.
export const UNSAFE_CHARS = /[\s\u0000-\u001f\u007f-\u009f\u00ad\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]/;
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;

/** Link targets inside text: http, https, mailto, or relative (path, query, fragment, protocol-relative). */
export function isSafeHref(href: string | null | undefined): boolean {
  if (typeof href !== 'string') return false;
  const value = href.trim();
  if (!value || UNSAFE_CHARS.test(value)) return false;
  const scheme = value.match(SCHEME)?.[1]?.toLowerCase();
  if (scheme !== undefined) return scheme === 'http' || scheme === 'https' || scheme === 'mailto';
  // Relative: no backslashes (browsers read them as '/'), and no ':' in the first path segment
  // (RFC 3986 4.2: such a reference is ambiguous with a scheme, e.g. 'java%0ascript:...').
  if (value.includes('\\')) return false;
  const firstSegment = value.split(/[/?#]/, 1)[0] ?? '';
  return !firstSegment.includes(':');
}

/** Image sources: absolute http(s) URLs without credentials, or our own uploads. */
export function isSafeImageSrc(src: string | null | undefined): boolean {
  if (typeof src !== 'string') return false;
  const value = src.trim();
  if (!value || UNSAFE_CHARS.test(value)) return false;
  if (value.startsWith('/uploads/')) return !value.includes('..');
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password;
  } catch {
    return false;
  }
}

/** A source link shown as a plain link when an embed cannot be shown: http(s) only. */
export function isHttpUrl(href: string | null | undefined): boolean {
  if (typeof href !== 'string' || UNSAFE_CHARS.test(href.trim())) return false;
  try {
    const url = new URL(href.trim());
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for use as HTML (the sanitizer's fallback when no DOM is available). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}
