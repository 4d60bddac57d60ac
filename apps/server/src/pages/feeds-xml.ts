/**
 * Characters XML 1.0 cannot carry at all (C0 controls but tab, CR and LF; lone surrogates;
 * U+FFFE and U+FFFF): one of them in a title would make the whole feed unreadable, so they go.
 */
const NOT_XML =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: exactly the characters XML forbids.
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

// biome-ignore lint/suspicious/noControlCharactersInRegex: any character xmlEscape would change.
const NEEDS_ESCAPE = /[&<>"'\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff\ud800-\udfff]/;

/** Text or attribute value escaped for XML (most sitemap values need nothing: one test, no copies). */
export function xmlEscape(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return text;
  return text
    .replace(NOT_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** Text with only characters JSON Feed readers can show (same rule as XML, for one behaviour). */
export function xmlSafeText(text: string): string {
  return text.replace(NOT_XML, '');
}

export const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>';
