import { MAX_TAG_LENGTH, SITEMAP_MAX_URLS } from '@inkwell/core';
import { badRequest } from '../lib/errors';
import { XML_DECLARATION, xmlEscape } from './feeds-xml';
import type { SitemapRepository, SitemapRow } from './sitemap.repo';

export const SITEMAP_SECTIONS = ['posts', 'profiles', 'tags'] as const;
export type SitemapSection = (typeof SITEMAP_SECTIONS)[number];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TAG = new RegExp(`^[\\p{L}\\p{N}._+#-]{1,${MAX_TAG_LENGTH}}$`, 'u');
const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

/** Root-relative path of one sitemap file: the section's first, or the one after a key. */
export function sitemapFilePath(section: SitemapSection, after?: string): string {
  return `/sitemaps/${section}.xml${after ? `?after=${encodeURIComponent(after)}` : ''}`;
}

/**
 * `/sitemap.xml` is a sitemap index naming every file; each file holds at most `fileSize`
 * (50,000, the protocol's limit) URLs of one section, keyset-paged: a file is named by the key
 * it starts after, so any file is one index range read however deep it is.
 */
export class SitemapService {
  constructor(
    private readonly repo: SitemapRepository,
    private readonly publicUrl: string,
    private readonly fileSize = SITEMAP_MAX_URLS,
  ) {}

  async index(): Promise<string> {
    const [posts, profiles, tags] = await Promise.all([
      this.repo.postFileEnds(this.fileSize),
      this.repo.profileFileEnds(this.fileSize),
      this.repo.tagFileEnds(this.fileSize),
    ]);
    const files: string[] = [];
    for (const [section, ends] of [
      ['posts', posts],
      ['profiles', profiles],
      ['tags', tags],
    ] as const) {
      files.push(sitemapFilePath(section));
      for (const end of ends) files.push(sitemapFilePath(section, end));
    }
    const entries = files.map((path) => `<sitemap><loc>${xmlEscape(this.publicUrl + path)}</loc></sitemap>`);
    return [XML_DECLARATION, `<sitemapindex xmlns="${NS}">`, ...entries, '</sitemapindex>'].join('\n');
  }

  async file(section: SitemapSection, after: string | undefined): Promise<{ xml: string; lastModified?: string }> {
    if (after !== undefined && !(section === 'tags' ? TAG : UUID).test(after)) {
      throw badRequest(`after: not a ${section === 'tags' ? 'tag' : 'post or profile id'}`);
    }
    const key = after ?? null;
    const rows: SitemapRow[] =
      section === 'posts'
        ? await this.repo.posts(key, this.fileSize)
        : section === 'profiles'
          ? await this.repo.profiles(key, this.fileSize)
          : await this.repo.tags(key, this.fileSize);
    let newest = '';
    const urls = rows.map((row) => {
      if (row.lastmod && row.lastmod > newest) newest = row.lastmod;
      const lastmod = row.lastmod ? `<lastmod>${xmlEscape(row.lastmod)}</lastmod>` : '';
      return `<url><loc>${xmlEscape(this.publicUrl + row.path)}</loc>${lastmod}</url>`;
    });
    const xml = [XML_DECLARATION, `<urlset xmlns="${NS}">`, ...urls, '</urlset>'].join('\n');
    return { xml, lastModified: newest || undefined };
  }
}
