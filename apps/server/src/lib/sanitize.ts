import sanitizeHtml from 'sanitize-html';

/**
 * The inline HTML allowed inside block text: b, i, u, mark, a (http, https, mailto or
 * relative), code and br. Everything else is unwrapped to its text; script-like elements
 * are dropped with their content. Links always open safely in a new tab.
 */
const INLINE_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ['b', 'i', 'u', 'mark', 'a', 'code', 'br'],
  allowedAttributes: { a: ['href', 'target', 'rel'], mark: ['class'], code: ['class'] },
  allowedClasses: { mark: ['cdx-marker'], code: ['inline-code'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: true,
  disallowedTagsMode: 'discard',
  nonTextTags: [
    'script',
    'style',
    'textarea',
    'option',
    'noscript',
    'iframe',
    'object',
    'embed',
    'svg',
    'math',
    'template',
    'title',
    'xmp',
    'noembed',
    'noframes',
  ],
  transformTags: {
    strong: 'b',
    em: 'i',
    // A link keeps only a safe href; anything else is unwrapped to its text.
    a: (_tag, attribs): sanitizeHtml.Tag =>
      attribs.href && isSafeHref(attribs.href)
        ? { tagName: 'a', attribs: { href: attribs.href.trim(), target: '_blank', rel: 'noopener noreferrer nofollow ugc' } }
        : { tagName: 'span', attribs: {} },
  },
};

/** http(s), mailto, root-relative, protocol-relative or fragment links; no spaces or control characters. */
export function isSafeHref(href: string): boolean {
  const h = href.trim();
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what must be refused in a URL.
  return /^(https?:\/\/|mailto:|\/|#)/i.test(h) && !/[\s\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(h);
}

export function cleanInlineHtml(html: string): string {
  // Plain text (no tag, no entity) comes out of the sanitizer with only '>' escaped; skipping the
  // parser for it keeps big lists and tables cheap.
  if (!/[<&]/.test(html)) return html.replace(/>/g, '&gt;');
  return sanitizeHtml(html, INLINE_OPTIONS);
}

/**
 * Visible text of HTML that cleanInlineHtml produced, for search and reading time. Its tags and
 * attribute values are well-formed and escaped, so dropping tags needs no second parse.
 */
export function htmlToText(cleanHtml: string): string {
  return (
    cleanHtml
      // A line break separates words ('one<br>two' is two words to search, not 'onetwo').
      .replace(/<br\s*\/?>/gi, ' ')
      .replace(/<[^>]*>/g, '')
      .replace(/&nbsp;/g, ' ')
      .replace(/&amp;/g, '&')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
  );
}

/** http(s) URLs only (and our own root-relative upload paths). */
export function isSafeImageUrl(url: string): boolean {
  if (/^\/uploads\/[A-Za-z0-9/_.-]+$/.test(url) && !url.includes('..')) return true;
  try {
    const u = new URL(url);
    return (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password;
  } catch {
    return false;
  }
}
