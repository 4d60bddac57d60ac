import { type ElementType, useMemo } from 'react';
import { sanitizeInline } from './sanitize';

interface SafeHtmlProps {
  /** Inline HTML of a block text field; cleaned again here before it reaches the DOM. */
  html: string | null | undefined;
  as?: ElementType;
  className?: string;
  id?: string;
}

/** The only place the reading page puts stored HTML into the DOM, always through sanitizeInline. */
export function SafeHtml({ html, as: Tag = 'span', className, id }: SafeHtmlProps) {
  const clean = useMemo(() => sanitizeInline(html), [html]);
  // biome-ignore lint/security/noDangerouslySetInnerHtml: the HTML was just cleaned by the allowlist sanitizer (sanitize.ts).
  return <Tag id={id} className={className} dangerouslySetInnerHTML={{ __html: clean }} />;
}

/** Visible text of inline HTML (for alt and title attributes), parsed in an inert document. */
export function textOf(html: string | null | undefined): string {
  if (!html) return '';
  if (typeof DOMParser === 'undefined') return html.replace(/<[^>]*>/g, '');
  return new DOMParser().parseFromString(html, 'text/html').body.textContent?.trim() ?? '';
}
