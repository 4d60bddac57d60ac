import createDOMPurify, { type Config, type DOMPurify } from 'dompurify';
import { escapeHtml, isSafeHref } from '../../lib/urls';

/**
 * The one render-time cleaner of inline HTML inside block text (paragraph, header, list items,
 * captions, quote, table cells). The server already cleaned it on save; this is the second
 * line of defence (ARCHITECTURE.md "HTML safety"). Allowlist: b, i, u, mark, a, code, br.
 * Links keep only an http, https, mailto or relative href and always open in a new tab with
 * rel="noopener noreferrer nofollow ugc"; a link with any other href loses it.
 */
export const INLINE_TAGS = ['b', 'i', 'u', 'mark', 'a', 'code', 'br'] as const;
export const LINK_REL = 'noopener noreferrer nofollow ugc';

const CONFIG: Config = {
  ALLOWED_TAGS: [...INLINE_TAGS],
  ALLOWED_ATTR: ['href'],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  KEEP_CONTENT: true,
  RETURN_DOM: false,
  RETURN_DOM_FRAGMENT: false,
  RETURN_TRUSTED_TYPE: false,
};

let instance: DOMPurify | null | undefined;

/** A private DOMPurify instance, so our hooks never touch other users of the library. */
function createPurifier(): DOMPurify | null {
  if (typeof window === 'undefined') return null;
  const purify = createDOMPurify(window);
  if (!purify.isSupported) return null;
  // Set once: a config passed to every sanitize() call is parsed again each time (its allowlist
  // sets rebuilt), which was most of the cost of rendering a blog's blocks.
  purify.setConfig(CONFIG);
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName !== 'A') return;
    const href = node.getAttribute('href');
    if (href !== null && isSafeHref(href)) {
      node.setAttribute('href', href.trim());
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', LINK_REL);
    } else {
      node.removeAttribute('href');
    }
  });
  return purify;
}

function purifier(): DOMPurify | null {
  if (instance === undefined) instance = createPurifier();
  return instance;
}

/** Clean inline HTML, ready for innerHTML. Without a DOM (tests, SSR) everything is escaped as text. */
export function sanitizeInline(html: string | null | undefined): string {
  if (typeof html !== 'string' || html === '') return '';
  const purify = purifier();
  if (!purify) return escapeHtml(html);
  return purify.sanitize(html) as string;
}
