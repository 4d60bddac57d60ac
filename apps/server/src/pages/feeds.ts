import { FEED_FORMATS, type FeedFormat, type FeedScope, feedPath, SITE_NAME } from '@inkwell/core';
import { escapeHtml } from './blocks-html';
import type { FeedData } from './feeds.service';
import { XML_DECLARATION, xmlEscape, xmlSafeText } from './feeds-xml';

/**
 * Atom 1.0, RSS 2.0 and JSON Feed 1.1 documents from one FeedData. Entry ids are `urn:uuid:`
 * of the post's database id, so they survive a new title, slug or domain; every link is
 * absolute (PUBLIC_URL); content is the sanitized HTML of blocks-html.ts.
 */
export function renderFeed(data: FeedData, format: FeedFormat, publicUrl: string): string {
  const self = `${publicUrl}${feedPath(data.scope, format)}`;
  if (format === 'rss') return rss(data, self);
  if (format === 'json') return jsonFeed(data, self);
  return atom(data, self);
}

export const feedContentType = (format: FeedFormat) => `${FEED_FORMATS[format].type}; charset=utf-8`;

function atom(data: FeedData, self: string): string {
  const x = xmlEscape;
  const entries = data.items.map((item) =>
    [
      '<entry>',
      `<id>urn:uuid:${x(item.id)}</id>`,
      `<title type="text">${x(item.title)}</title>`,
      `<link rel="alternate" type="text/html" href="${x(item.url)}"/>`,
      `<published>${x(item.published)}</published>`,
      `<updated>${x(item.updated)}</updated>`,
      `<author><name>${x(item.author?.name ?? SITE_NAME)}</name>${item.author ? `<uri>${x(item.author.url)}</uri>` : ''}</author>`,
      ...item.tags.map((tag) => `<category term="${x(tag)}"/>`),
      item.summary ? `<summary type="text">${x(item.summary)}</summary>` : '',
      `<content type="html">${x(item.html)}</content>`,
      '</entry>',
    ].join(''),
  );
  return [
    XML_DECLARATION,
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `<id>${x(data.id)}</id>`,
    `<title type="text">${x(data.title)}</title>`,
    `<subtitle type="text">${x(data.subtitle)}</subtitle>`,
    `<link rel="self" type="application/atom+xml" href="${x(self)}"/>`,
    `<link rel="alternate" type="text/html" href="${x(data.pageUrl)}"/>`,
    `<updated>${x(data.updated)}</updated>`,
    `<author><name>${x(SITE_NAME)}</name></author>`,
    `<generator>${x(SITE_NAME)}</generator>`,
    ...entries,
    '</feed>',
  ].join('\n');
}

/** RFC 822 dates, as RSS 2.0 requires. */
const rfc822 = (iso: string) => new Date(iso).toUTCString();

function rss(data: FeedData, self: string): string {
  const x = xmlEscape;
  const items = data.items.map((item) =>
    [
      '<item>',
      `<title>${x(item.title)}</title>`,
      `<link>${x(item.url)}</link>`,
      `<guid isPermaLink="false">urn:uuid:${x(item.id)}</guid>`,
      `<pubDate>${rfc822(item.published)}</pubDate>`,
      item.author ? `<dc:creator>${x(item.author.name)}</dc:creator>` : '',
      ...item.tags.map((tag) => `<category>${x(tag)}</category>`),
      `<description>${x(item.html || escapeHtml(item.summary))}</description>`,
      '</item>',
    ].join(''),
  );
  return [
    XML_DECLARATION,
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    '<channel>',
    `<title>${x(data.title)}</title>`,
    `<link>${x(data.pageUrl)}</link>`,
    `<description>${x(data.subtitle)}</description>`,
    `<atom:link href="${x(self)}" rel="self" type="application/rss+xml"/>`,
    `<lastBuildDate>${rfc822(data.updated)}</lastBuildDate>`,
    `<generator>${x(SITE_NAME)}</generator>`,
    ...items,
    '</channel>',
    '</rss>',
  ].join('\n');
}

function jsonFeed(data: FeedData, self: string): string {
  const t = xmlSafeText;
  return JSON.stringify({
    version: 'https://jsonfeed.org/version/1.1',
    title: t(data.title),
    description: t(data.subtitle),
    home_page_url: data.pageUrl,
    feed_url: self,
    items: data.items.map((item) => ({
      id: `urn:uuid:${item.id}`,
      url: item.url,
      title: t(item.title),
      summary: t(item.summary) || undefined,
      content_html: t(item.html),
      date_published: item.published,
      date_modified: item.updated,
      authors: item.author ? [{ name: t(item.author.name), url: item.author.url }] : undefined,
      tags: item.tags.length ? item.tags : undefined,
    })),
  });
}

export interface FeedLink {
  rel: 'alternate';
  type: string;
  title: string;
  href: string;
}

/** The feeds a page announces in its head: `<link rel="alternate">` for Atom, RSS and JSON Feed. */
export function feedLinksFor(scope: FeedScope, publicUrl: string): FeedLink[] {
  const name = scope.kind === 'author' ? `@${scope.username}` : scope.kind === 'tag' ? `#${scope.tag}` : SITE_NAME;
  return (Object.keys(FEED_FORMATS) as FeedFormat[]).map((format) => ({
    rel: 'alternate',
    type: FEED_FORMATS[format].type,
    title: `${name} (${FEED_FORMATS[format].label})`,
    href: `${publicUrl}${feedPath(scope, format)}`,
  }));
}

/** The same links as HTML, ready for a server-rendered head. */
export function feedLinkTags(scope: FeedScope, publicUrl: string): string {
  return feedLinksFor(scope, publicUrl)
    .map((l) => `<link rel="alternate" type="${escapeHtml(l.type)}" title="${escapeHtml(l.title)}" href="${escapeHtml(l.href)}">`)
    .join('\n');
}
