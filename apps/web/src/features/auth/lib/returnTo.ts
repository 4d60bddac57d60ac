/**
 * Where a sign-in sends the person afterwards: back to the page that sent them to /signin (a
 * protected route's redirect passes it as router state `from`; a link may pass `?next=`), else /
 * (SPEC.md 2: a plain visit to /signin lands on /). Only a path of this app is ever returned to:
 * anything that is not a single-slash path ('//evil.example', 'https://…', '/\evil', control
 * characters) is ignored, so the parameter cannot send anyone to another site.
 */

export const DEFAULT_AFTER_SIGNIN = '/';

/** Resolved against a placeholder origin: a path of this app keeps it, anything else does not. */
const PLACEHOLDER_ORIGIN = 'http://inkwell.invalid';
const MAX_LENGTH = 2048;
/** Going back to the auth screen itself would only show the form again. */
const AUTH_SCREENS = new Set(['/signin', '/signup']);

/** The same-origin path (with query and fragment) a value names, or null when it is not one. */
export function safeReturnPath(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_LENGTH) return null;
  if (value[0] !== '/' || value[1] === '/' || value[1] === '\\') return null;
  // Browsers drop tabs and newlines and read '\' as '/': '/\t/evil.example' would become '//evil.example'.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused here.
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, PLACEHOLDER_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== PLACEHOLDER_ORIGIN || url.pathname.startsWith('//')) return null;
  if (AUTH_SCREENS.has(url.pathname.replace(/\/+$/, '') || '/')) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The return path of the auth screen: router state `from` first, else the `next` query parameter. */
export function returnPathOf(state: unknown, search: string): string | null {
  const from = state && typeof state === 'object' ? (state as { from?: unknown }).from : undefined;
  return safeReturnPath(from) ?? safeReturnPath(new URLSearchParams(search).get('next'));
}

/** Router state that carries a return path on to the other auth screen (sign-in ↔ sign-up). */
export function returnState(returnTo: string | null): { from: string } | undefined {
  return returnTo ? { from: returnTo } : undefined;
}
