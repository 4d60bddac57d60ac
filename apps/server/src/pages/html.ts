/**
 * Escaping for server-rendered pages. Every value that reaches a page passes through one of
 * these: text and attribute values through escapeHtml, JSON-LD through jsonForScript.
 */

// One escaper for every page and feed: the block renderer's.
export { escapeHtml } from './blocks-html';

/**
 * JSON inside `<script type="application/ld+json">`: `<`, `>` and `&` as \u escapes, so no value
 * can close the script element or open a comment; U+2028/2029 for old JavaScript parsers.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** At most `max` characters, cut at a word boundary with an ellipsis. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** An absolute URL for a path or a URL: relative ones (our uploads) are resolved against the public URL. */
export function absoluteUrl(publicUrl: string, pathOrUrl: string): string {
  if (/^https?:\/\//i.test(pathOrUrl)) return pathOrUrl;
  return `${publicUrl}${pathOrUrl.startsWith('/') ? '' : '/'}${pathOrUrl}`;
}
