/**
 * Where the public feeds live (issue 13): one Atom, RSS and JSON Feed document for the whole
 * site, for each author and for each tag. The server routes and the web's RSS links both build
 * their paths here, so the two can never disagree.
 */
export const SITE_NAME = 'Inkwell';
/** Newest published posts in every feed. */
export const FEED_ITEM_COUNT = 20;
/**
 * Stored content (characters of a post's block JSON) that one feed entry carries in full. A longer
 * post's entry carries its description and a link instead: a post within the content limit can
 * still grow eightfold as feed XML (`<` in a code block becomes `&amp;lt;`).
 */
export const FEED_ENTRY_CONTENT_MAX_CHARS = 100_000;
/**
 * Stored content all entries of one feed carry in full, newest first; later entries carry their
 * description and a link. Bounds a feed's rendering to a few ms and its document to about 3 MB at
 * worst, under the response cache's 4 MB, so twenty maximum-size posts cannot make each read of a
 * feed render tens of megabytes (they made every request take 3-4 s and held the event loop).
 */
export const FEED_CONTENT_BUDGET_CHARS = 400_000;
/** The sitemap protocol's limit of URLs in one sitemap file. */
export const SITEMAP_MAX_URLS = 50_000;
/**
 * URLs per sitemap file as the index splits them: a fifth of the protocol's limit, so a posts
 * file (~1.4 MB) fits the response cache and costs a few tens of ms to build.
 */
export const SITEMAP_FILE_URLS = 10_000;

export const FEED_FORMATS = {
  atom: { file: 'feed.xml', type: 'application/atom+xml', label: 'Atom' },
  rss: { file: 'rss.xml', type: 'application/rss+xml', label: 'RSS' },
  json: { file: 'feed.json', type: 'application/feed+json', label: 'JSON Feed' },
} as const;
export type FeedFormat = keyof typeof FEED_FORMATS;

export type FeedScope = { kind: 'site' } | { kind: 'author'; username: string } | { kind: 'tag'; tag: string };

/** Root-relative path of a feed, e.g. `/feed.xml`, `/@ada/rss.xml`, `/tag/react/feed.json`. */
export function feedPath(scope: FeedScope, format: FeedFormat = 'atom'): string {
  const file = FEED_FORMATS[format].file;
  if (scope.kind === 'author') return `/@${encodeURIComponent(scope.username)}/${file}`;
  if (scope.kind === 'tag') return `/tag/${encodeURIComponent(scope.tag)}/${file}`;
  return `/${file}`;
}
