import { parse, stringify } from 'yaml';
import { MAX_TAGS } from '../constants';
import { MAX_DESCRIPTION_LENGTH, MAX_TAG_LENGTH, MAX_TITLE_LENGTH } from '../messages';
import { addTag } from '../rules/tags';

/** What a post's front matter says, in the names the editor uses. */
export interface FrontMatter {
  title: string;
  description: string;
  tags: string[];
  coverImage: string | null;
  /** As written (ISO 8601 or a YAML date); the server dates a post by when it is saved. */
  date: string | null;
  /** true for `draft: true` or `published: false`, null when the file does not say. */
  draft: boolean | null;
}

export class MarkdownImportError extends Error {
  override name = 'MarkdownImportError';
}

const FENCE = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

/** The front matter and the Markdown after it; a file without `---` front matter has an empty one. */
export function splitFrontMatter(markdown: string): { frontMatter: FrontMatter; body: string } {
  const match = FENCE.exec(markdown);
  if (!match) return { frontMatter: readFrontMatter({}), body: markdown.replace(/^\uFEFF/, '') };
  let data: unknown;
  try {
    // The core schema: dates stay strings, no custom tags; aliases are capped by the parser.
    data = parse(match[1] ?? '', { schema: 'core', maxAliasCount: 50 });
  } catch {
    throw new MarkdownImportError('The front matter at the top of the file is not valid YAML.');
  }
  const record = data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  return { frontMatter: readFrontMatter(record), body: markdown.slice(match[0].length) };
}

const firstString = (record: Record<string, unknown>, keys: string[]): string | null => {
  for (const key of keys) {
    const value = record[key];
    if (typeof value === 'string' && value.trim()) return value.trim();
    if (value instanceof Date) return value.toISOString();
    if (typeof value === 'number') return String(value);
  }
  return null;
};

/** Reads the names used by dev.to, Hashnode, Jekyll, Hugo and Ghost exports. */
function readFrontMatter(record: Record<string, unknown>): FrontMatter {
  const cover = firstString(record, ['cover_image', 'coverImage', 'cover', 'image', 'featured_image', 'feature_image']);
  const rawTags = record.tags ?? record.keywords;
  const list = Array.isArray(rawTags) ? rawTags.map(String) : typeof rawTags === 'string' ? rawTags.split(/[,\s]+/) : [];
  let tags: string[] = [];
  for (const raw of list.slice(0, MAX_TAGS * 3)) {
    const added = raw.length <= MAX_TAG_LENGTH ? addTag(tags, raw) : null;
    if (added?.ok) tags = added.tags;
  }
  let draft: boolean | null = null;
  if (typeof record.draft === 'boolean') draft = record.draft;
  else if (typeof record.published === 'boolean') draft = !record.published;
  return {
    title: (firstString(record, ['title']) ?? '').slice(0, MAX_TITLE_LENGTH),
    description: (firstString(record, ['description', 'summary', 'subtitle', 'excerpt']) ?? '').slice(0, MAX_DESCRIPTION_LENGTH),
    tags,
    coverImage: cover && /^https?:\/\//i.test(cover) && !/\s/.test(cover) ? cover : null,
    date: firstString(record, ['date', 'published_at', 'publishedAt']),
    draft,
  };
}

/** What export writes in the front matter: the reading page's blog has all of it. */
export interface PostMeta {
  title: string;
  description?: string | null;
  tags?: readonly string[];
  image?: string | null;
  createdAt?: string | null;
  draft?: boolean;
  /** A draft's scheduled publishing time (UTC ISO), written as `scheduled_at`. */
  scheduledAt?: string | null;
  /** The post's series and its place in it, written as dev.to's `series` key plus `series_part`. */
  series?: { title: string; part: number } | null;
}

/** Front matter as export writes it: YAML between `---` lines, only the keys that have a value. */
export function writeFrontMatter(post: PostMeta): string {
  const data: Record<string, unknown> = { title: post.title };
  if (post.description) data.description = post.description;
  if (post.tags?.length) data.tags = [...post.tags];
  if (post.image) data.cover_image = post.image;
  if (post.createdAt) data.date = post.createdAt;
  if (post.draft !== undefined) data.draft = post.draft;
  if (post.scheduledAt) data.scheduled_at = post.scheduledAt;
  if (post.series) {
    data.series = post.series.title;
    data.series_part = post.series.part;
  }
  return `---\n${stringify(data, { lineWidth: 0 })}---\n`;
}
