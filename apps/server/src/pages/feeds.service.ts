import {
  FEED_CONTENT_BUDGET_CHARS,
  FEED_ENTRY_CONTENT_MAX_CHARS,
  FEED_ITEM_COUNT,
  type FeedScope,
  normalizeTag,
  SITE_NAME,
} from '@inkwell/core';
import { notFound } from '../lib/errors';
import type { BlogCardRow, BlogsRepository } from '../modules/blogs/blogs.repo';
import { storedUsername } from '../modules/users/username';
import type { ProfileListsRepository } from '../modules/users/users.lists.repo';
import type { UsersRepository } from '../modules/users/users.repo';
import { escapeHtml, renderBlocksHtml } from './blocks-html';
import type { FeedsRepository } from './feeds.repo';

export interface FeedItem {
  /** The database id (a UUID): the entry's id never changes, whatever the title, slug or domain. */
  id: string;
  url: string;
  title: string;
  summary: string;
  html: string;
  published: string;
  updated: string;
  author: { name: string; url: string } | null;
  tags: string[];
}

export interface FeedData {
  scope: FeedScope;
  /** Stable id of the feed itself. */
  id: string;
  title: string;
  subtitle: string;
  /** The HTML page this feed follows (absolute). */
  pageUrl: string;
  /** Newest change among the items; for an empty feed, when it was built (a reader showed 1970). */
  updated: string;
  items: FeedItem[];
}

interface FeedsDeps {
  blogs: BlogsRepository;
  profileLists: ProfileListsRepository;
  users: UsersRepository;
  feeds: FeedsRepository;
  publicUrl: string;
}

/**
 * The 20 newest published posts of the site, an author or a tag, with full HTML content.
 * The posts are picked by the same published-only list queries as the API's feed, tag and
 * profile pages, so a draft or a deleted post can never appear here when it is absent there.
 */
export class FeedsService {
  constructor(private readonly deps: FeedsDeps) {}

  async site(): Promise<FeedData> {
    const rows = await this.deps.blogs.listPublished(FEED_ITEM_COUNT, 0);
    return this.build({ kind: 'site' }, rows, {
      id: `${this.deps.publicUrl}/`,
      title: SITE_NAME,
      subtitle: `The newest posts on ${SITE_NAME}`,
      pageUrl: `${this.deps.publicUrl}/`,
    });
  }

  async author(username: string): Promise<FeedData> {
    const user = await this.deps.users.findByUsername(storedUsername(username));
    if (!user) throw notFound('User not found');
    const rows = await this.deps.profileLists.authored(user.id, 'public', FEED_ITEM_COUNT, 0);
    return this.build({ kind: 'author', username: user.username }, rows, {
      id: `urn:uuid:${user.id}`,
      title: `${user.name} (@${user.username}) on ${SITE_NAME}`,
      subtitle: user.bio?.trim() || `Posts by ${user.name}`,
      pageUrl: `${this.deps.publicUrl}/@${encodeURIComponent(user.username)}`,
    });
  }

  async tag(raw: string): Promise<FeedData> {
    const tag = normalizeTag(raw);
    if (!tag) throw notFound('Tag not found');
    const rows = await this.deps.blogs.listByTag(tag, FEED_ITEM_COUNT, 0);
    const pageUrl = `${this.deps.publicUrl}/tag/${encodeURIComponent(tag)}`;
    return this.build({ kind: 'tag', tag }, rows, {
      id: pageUrl,
      title: `#${tag} on ${SITE_NAME}`,
      subtitle: `The newest posts tagged #${tag}`,
      pageUrl,
    });
  }

  private async build(scope: FeedScope, listed: BlogCardRow[], meta: Omit<FeedData, 'scope' | 'updated' | 'items'>): Promise<FeedData> {
    const rows = listed.slice(0, FEED_ITEM_COUNT);
    const contents = await this.deps.feeds.contents(
      rows.map((r) => r.id),
      FEED_ENTRY_CONTENT_MAX_CHARS,
    );
    const base = this.deps.publicUrl;
    // Newest first, whole posts while the budget lasts (FEED_CONTENT_BUDGET_CHARS).
    let budget = FEED_CONTENT_BUDGET_CHARS;
    const items = rows.map((row): FeedItem => {
      const url = `${base}/blog/${encodeURIComponent(row.blog_id)}`;
      const stored = contents.get(row.id);
      const whole = stored?.content != null && stored.length <= budget;
      if (whole) budget -= stored.length;
      return {
        id: row.id,
        url,
        title: row.title,
        summary: row.description,
        html: whole ? renderBlocksHtml(stored.content ?? '', { baseUrl: base }) : readMore(row.description, url),
        published: row.created_at,
        updated: row.updated_at,
        author: row.creator_username
          ? { name: row.creator_name || row.creator_username, url: `${base}/@${encodeURIComponent(row.creator_username)}` }
          : null,
        tags: parseTags(row.tags),
      };
    });
    const updated = items.length
      ? items.reduce((max, i) => (i.updated > max ? i.updated : max), items[0]!.updated)
      : new Date().toISOString();
    return { scope, ...meta, updated, items };
  }
}

/** The entry of a post too long for the feed: its description and a link to it. */
function readMore(description: string, url: string): string {
  const summary = description.trim() ? `<p>${escapeHtml(description)}</p>` : '';
  return `${summary}<p><a href="${escapeHtml(url)}">Read the whole post on ${SITE_NAME}</a></p>`;
}

function parseTags(json: string): string[] {
  try {
    const tags = JSON.parse(json);
    return Array.isArray(tags) ? tags.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}
