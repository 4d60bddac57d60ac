import { FEED_FORMATS, type FeedScope, feedPath, SITE_NAME } from '@inkwell/core';
import { escapeHtml, jsonForScript } from './html';

export { SITE_NAME };
export const SITE_TAGLINE = 'Discover & Share Knowledge';
export const SITE_DESCRIPTION = 'Inkwell: a journal for developers and tech writers. Discover & Share Knowledge.';

export interface OgImage {
  url: string;
  width?: number;
  height?: number;
  alt: string;
}

/** Everything a page's <head> says about it; values are raw text, escaped when written. */
export interface PageHead {
  title: string;
  description: string;
  /** Absolute URL of the page's one address. */
  canonical: string;
  ogType: 'website' | 'article' | 'profile';
  image?: OgImage;
  /** Posts: article:* tags. */
  article?: { publishedTime: string; modifiedTime: string; authorUrl?: string; tags: string[] };
  /** Profiles: profile:username. */
  profileUsername?: string;
  /** Pages a search engine should not list (search results, app-only screens, not-found). */
  noindex?: boolean;
  /** schema.org objects written as JSON-LD. */
  jsonLd?: Record<string, unknown>[];
  /** Feeds a feed reader finds from this page (`link rel=alternate`). */
  feeds?: { scope: FeedScope; title: string }[];
}

const meta = (name: string, content: string) => `<meta name="${name}" content="${escapeHtml(content)}" />`;
const prop = (property: string, content: string) => `<meta property="${property}" content="${escapeHtml(content)}" />`;

/** The head tags of one page: title, description, canonical, Open Graph, Twitter card, JSON-LD. */
export function renderHead(head: PageHead): string {
  const tags = [
    `<title>${escapeHtml(head.title)}</title>`,
    meta('description', head.description),
    head.noindex ? meta('robots', 'noindex, follow') : '',
    `<link rel="canonical" href="${escapeHtml(head.canonical)}" />`,
    prop('og:site_name', SITE_NAME),
    prop('og:type', head.ogType),
    prop('og:title', head.title),
    prop('og:description', head.description),
    prop('og:url', head.canonical),
  ];
  if (head.image) {
    tags.push(prop('og:image', head.image.url));
    if (head.image.width && head.image.height) {
      tags.push(prop('og:image:width', String(head.image.width)), prop('og:image:height', String(head.image.height)));
    }
    tags.push(prop('og:image:alt', head.image.alt));
  }
  if (head.article) {
    tags.push(prop('article:published_time', head.article.publishedTime), prop('article:modified_time', head.article.modifiedTime));
    if (head.article.authorUrl) tags.push(prop('article:author', head.article.authorUrl));
    for (const tag of head.article.tags) tags.push(prop('article:tag', tag));
  }
  if (head.profileUsername) tags.push(prop('profile:username', head.profileUsername));
  // A profile's picture is a square avatar: the small card; every other image is a wide one.
  const large = head.image !== undefined && head.ogType !== 'profile';
  tags.push(meta('twitter:card', large ? 'summary_large_image' : 'summary'), meta('twitter:title', head.title));
  tags.push(meta('twitter:description', head.description));
  if (head.image) tags.push(meta('twitter:image', head.image.url), meta('twitter:image:alt', head.image.alt));
  for (const feed of head.feeds ?? []) {
    for (const format of ['atom', 'rss', 'json'] as const) {
      const { type, label } = FEED_FORMATS[format];
      tags.push(
        `<link rel="alternate" type="${type}" title="${escapeHtml(`${feed.title} (${label})`)}" href="${escapeHtml(feedPath(feed.scope, format))}" />`,
      );
    }
  }
  for (const data of head.jsonLd ?? []) {
    tags.push(`<script type="application/ld+json">${jsonForScript({ '@context': 'https://schema.org', ...data })}</script>`);
  }
  return tags.filter(Boolean).join('\n    ');
}
