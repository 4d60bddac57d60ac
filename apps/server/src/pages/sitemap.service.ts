import { MAX_TAG_LENGTH, SITEMAP_FILE_URLS, SITEMAP_MAX_URLS } from '@inkwell/core';
import { badRequest } from '../lib/errors';
import { XML_DECLARATION, xmlEscape } from './feeds-xml';
import type { KeyRange, SitemapRepository, SitemapRow } from './sitemap.repo';

export const SITEMAP_SECTIONS = ['posts', 'profiles', 'tags'] as const;
export type SitemapSection = (typeof SITEMAP_SECTIONS)[number];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TAG = new RegExp(`^[\\p{L}\\p{N}._+#-]{1,${MAX_TAG_LENGTH}}$`, 'u');
const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
/** A full walk of the file boundaries at most this often (deleted posts shrink old files). */
const REWALK_MS = 60 * 60_000;

/** Root-relative path of one sitemap file: its section and key range (absent ends are open). */
export function sitemapFilePath(section: SitemapSection, range: Partial<KeyRange> = {}): string {
  const query = new URLSearchParams();
  if (range.after) query.set('after', range.after);
  if (range.until) query.set('until', range.until);
  const search = query.toString();
  return `/sitemaps/${section}.xml${search ? `?${search}` : ''}`;
}

export interface SitemapOptions {
  /** URLs per file as the index splits them. */
  fileSize?: number;
  rewalkMs?: number;
  now?: () => number;
}

/**
 * `/sitemap.xml` is a sitemap index naming every file; each file is a key range of one section
 * (`?after=K1&until=K2`), read from an index range however deep it is. The ranges are cut every
 * `fileSize` keys; the cut keys are kept in memory and extended from the last one on each index
 * build, so a rebuilt index reads only the newest, unfinished file's keys, not the whole table.
 * A range names its own ends, so any instance serves it and a post published late into an old
 * range is never pushed out of it: the range grows instead, and a range grown to 1.5 files
 * makes the next index walk its section's boundaries again (as does an hour's age).
 */
export class SitemapService {
  private readonly fileSize: number;
  private readonly rewalkMs: number;
  private readonly now: () => number;
  private readonly known = new Map<SitemapSection, { ends: string[]; walkedAt: number }>();
  private readonly outgrown = new Set<SitemapSection>();
  private readonly walking = new Map<SitemapSection, Promise<string[]>>();

  constructor(
    private readonly repo: SitemapRepository,
    private readonly publicUrl: string,
    options: SitemapOptions = {},
  ) {
    this.fileSize = options.fileSize ?? SITEMAP_FILE_URLS;
    this.rewalkMs = options.rewalkMs ?? REWALK_MS;
    this.now = options.now ?? Date.now;
  }

  async index(): Promise<string> {
    const ends = await Promise.all(SITEMAP_SECTIONS.map((section) => this.fileEnds(section)));
    const entries = SITEMAP_SECTIONS.flatMap((section, i) =>
      [null, ...(ends[i] as string[])].map((after, j, starts) => {
        const path = sitemapFilePath(section, { after, until: starts[j + 1] ?? null });
        return `<sitemap><loc>${xmlEscape(this.publicUrl + path)}</loc></sitemap>`;
      }),
    );
    return [XML_DECLARATION, `<sitemapindex xmlns="${NS}">`, ...entries, '</sitemapindex>'].join('\n');
  }

  async file(section: SitemapSection, range: Partial<KeyRange>): Promise<{ xml: string }> {
    const key = section === 'tags' ? TAG : UUID;
    for (const end of ['after', 'until'] as const) {
      const value = range[end];
      if (value !== undefined && value !== null && !key.test(value)) {
        throw badRequest(`${end}: not a ${section === 'tags' ? 'tag' : 'post or profile id'}`);
      }
    }
    const keys: KeyRange = { after: range.after ?? null, until: range.until ?? null };
    // Room for late arrivals in a range, never past the protocol's limit.
    const cap = Math.min(2 * this.fileSize, SITEMAP_MAX_URLS);
    const rows: SitemapRow[] =
      section === 'posts'
        ? await this.repo.posts(keys, cap)
        : section === 'profiles'
          ? await this.repo.profiles(keys, cap)
          : await this.repo.tags(keys, cap);
    if (keys.until !== null && rows.length >= 1.5 * this.fileSize) this.outgrown.add(section);
    const urls = rows.map((row) => {
      const lastmod = row.lastmod ? `<lastmod>${xmlEscape(row.lastmod)}</lastmod>` : '';
      return `<url><loc>${xmlEscape(this.publicUrl + row.path)}</loc>${lastmod}</url>`;
    });
    const xml = [XML_DECLARATION, `<urlset xmlns="${NS}">`, ...urls, '</urlset>'].join('\n');
    return { xml };
  }

  /** The cut keys of one section; concurrent index builds share one walk. */
  private fileEnds(section: SitemapSection): Promise<string[]> {
    const running = this.walking.get(section);
    if (running) return running;
    const walk = this.walk(section).finally(() => this.walking.delete(section));
    this.walking.set(section, walk);
    return walk;
  }

  private async walk(section: SitemapSection): Promise<string[]> {
    const known = this.known.get(section);
    const full = this.outgrown.delete(section) || !known || this.now() - known.walkedAt >= this.rewalkMs;
    const from = full ? null : (known.ends[known.ends.length - 1] ?? null);
    const found =
      section === 'posts'
        ? await this.repo.postFileEnds(from, this.fileSize)
        : section === 'profiles'
          ? await this.repo.profileFileEnds(from, this.fileSize)
          : await this.repo.tagFileEnds(from, this.fileSize);
    const ends = full ? found : [...known.ends, ...found];
    this.known.set(section, { ends, walkedAt: full ? this.now() : known.walkedAt });
    return ends;
  }
}
