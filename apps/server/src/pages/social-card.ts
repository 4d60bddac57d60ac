import { createHash } from 'node:crypto';
import type { Blog } from '@inkwell/core';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import sharp from 'sharp';
import { newId, nowIso } from '../db/ids';
import type { Database } from '../db/schema';
import { publiclyVisibleSql } from '../lib/policies';
import type { PublicDataChanges } from '../lib/public-data';
import { PublicMemo } from '../lib/public-memo';
import { postTag } from '../lib/public-tags';
import type { Storage } from '../storage/storage';
import { xmlEscape } from './feeds-xml';
import type { OgImage } from './head';
import { SITE_NAME, SITE_TAGLINE } from './head';
import { absoluteUrl, truncate } from './html';

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;

export interface SocialCardsDeps {
  db: Kysely<Database>;
  storage: Storage;
  publicUrl: string;
  log: FastifyBaseLogger;
  /** A post's change (post:<blogId>) on any instance: a moderator's hide deletes its card. */
  changes: PublicDataChanges;
}

/**
 * The 1200x630 picture shared with a post that has no featured image: its title, author, reading
 * time and the site's name, drawn as SVG and turned into PNG by sharp (libvips works off the
 * event loop, with the system's fonts through fontconfig). Made once per version of what it
 * shows and kept in storage as an upload row of kind 'card' linked to the post, so deleting the
 * post deletes it and editing the post (which drops upload rows the post no longer names)
 * retires it; the next page view draws the new one. A moderator's hide (or the author's
 * suspension) deletes it too (UploadsService.dropCards); a restore's next view draws it again.
 */
export class SocialCards {
  /**
   * Post cards known to be stored, so a page view after the first costs no query; dropped when
   * the post changes anywhere (its card may have been deleted: a hidden post) and after a TTL.
   */
  private readonly stored: PublicMemo<true>;
  /** The site's card, drawn once per process. */
  private readonly siteStored = new Set<string>();
  private readonly drawing = new Map<string, Promise<void>>();

  constructor(private readonly deps: SocialCardsDeps) {
    this.stored = new PublicMemo<true>(deps.changes, { maxEntries: 10_000 });
  }

  /** The post's card, drawn and stored first if this version has none yet; undefined if that failed. */
  async forBlog(blog: Blog): Promise<OgImage | undefined> {
    if (!blog.creator) return undefined;
    const fields = { title: blog.title, author: blog.creator.name || blog.creator.username, minutes: blog.readingTime };
    const version = createHash('sha1')
      .update(JSON.stringify([blog.updatedAt, fields.title, fields.author, fields.minutes]))
      .digest('hex')
      .slice(0, 16);
    const key = `cards/${blog._id.toLowerCase()}-${version}.png`;
    try {
      if (!this.stored.get(key)) {
        const generation = this.stored.generation;
        await this.draw(key, () => this.storeBlogCard(key, blog._id, blog.creator!._id, fields));
        this.stored.set(key, generation, true, [postTag(blog.blogId)]);
      }
    } catch (err) {
      this.deps.log.warn({ err, blogId: blog.blogId }, 'could not draw the social card');
      return undefined;
    }
    return this.image(key, blog.title);
  }

  /** The site's own card (home, tags, search): kept under a key made from its text. */
  async forSite(): Promise<OgImage | undefined> {
    const version = createHash('sha1').update(`${SITE_NAME}|${SITE_TAGLINE}|1`).digest('hex').slice(0, 16);
    const key = `cards/site-${version}.png`;
    try {
      if (!this.siteStored.has(key)) {
        await this.draw(key, async () =>
          this.deps.storage.put(key, await drawCard(SITE_TAGLINE, 'A journal for developers and tech writers', ''), 'image/png'),
        );
        this.siteStored.add(key);
      }
    } catch (err) {
      this.deps.log.warn({ err }, 'could not draw the site card');
      return undefined;
    }
    return this.image(key, `${SITE_NAME}: ${SITE_TAGLINE}`);
  }

  private image(key: string, alt: string): OgImage {
    return { url: absoluteUrl(this.deps.publicUrl, this.deps.storage.publicUrl(key)), width: CARD_WIDTH, height: CARD_HEIGHT, alt };
  }

  /** Runs `make` once per key and process at a time. */
  private async draw(key: string, make: () => Promise<void>): Promise<void> {
    let pending = this.drawing.get(key);
    if (!pending) {
      pending = make().finally(() => this.drawing.delete(key));
      this.drawing.set(key, pending);
    }
    await pending;
  }

  private async storeBlogCard(key: string, blogDbId: string, ownerId: string, fields: { title: string; author: string; minutes: number }) {
    const { db, storage } = this.deps;
    const existing = await db
      .selectFrom('uploads')
      .select('id')
      .where('blog_id', '=', blogDbId)
      .where('storage_key', '=', key)
      .executeTakeFirst();
    if (existing) return;
    const png = await drawCard(fields.title, `by ${fields.author}`, `${fields.minutes} min read`);
    await storage.put(key, png, 'image/png');
    const older = await db
      .selectFrom('uploads')
      .select(['id', 'storage_key'])
      .where('blog_id', '=', blogDbId)
      .where('kind', '=', 'card')
      .where('storage_key', '!=', key)
      .execute();
    const id = newId();
    await db
      .insertInto('uploads')
      .values({
        id,
        owner_id: ownerId,
        storage_key: key,
        url: storage.publicUrl(key),
        kind: 'card',
        blog_id: blogDbId,
        width: CARD_WIDTH,
        height: CARD_HEIGHT,
        bytes: png.length,
        created_at: nowIso(),
      })
      .execute();
    // A moderator may have hidden the post (or suspended its author) while this card was drawn,
    // and deleted its cards before this one was stored: asked again now, a post no longer public
    // loses it at once (UploadsService.dropCards).
    const stillPublic = await db
      .selectFrom('blogs')
      .select('id')
      .where('id', '=', blogDbId)
      .where(publiclyVisibleSql('blogs'))
      .executeTakeFirst();
    if (!stillPublic) older.push({ id, storage_key: key });
    // Cards of earlier versions (the author renamed themselves since): rows and files.
    if (older.length) {
      await db
        .deleteFrom('uploads')
        .where(
          'id',
          'in',
          older.map((o) => o.id),
        )
        .execute();
      await Promise.allSettled(older.map((o) => storage.delete(o.storage_key)));
    }
  }
}

/** Splits text into at most `maxLines` lines of about `perLine` characters, the last one ending in an ellipsis if cut. */
export function wrapLines(text: string, perLine: number, maxLines: number): string[] {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = '';
  for (let i = 0; i < words.length; i++) {
    let word = words[i] ?? '';
    if (word.length > perLine) word = `${word.slice(0, perLine - 1)}…`;
    const next = line ? `${line} ${word}` : word;
    if (next.length <= perLine) {
      line = next;
      continue;
    }
    lines.push(line);
    line = word;
    if (lines.length === maxLines) {
      const last = lines[maxLines - 1] ?? '';
      lines[maxLines - 1] = `${last.slice(0, perLine - 1).trimEnd()}…`;
      return lines;
    }
  }
  if (line) lines.push(line);
  return lines.slice(0, maxLines);
}

const FONT = "'DejaVu Sans', 'Liberation Sans', Arial, sans-serif";

/**
 * The card as PNG: indigo band, the title in up to three lines, the byline and the site's name.
 * The text is escaped for XML, which also drops what XML cannot carry (U+FFFF in a title made
 * librsvg refuse the whole card).
 */
export async function drawCard(title: string, byline: string, detail: string): Promise<Buffer> {
  const lines = wrapLines(title, 26, 3);
  const titleSvg = lines
    .map((line, i) => `<text x="80" y="${200 + i * 84}" font-size="68" font-weight="700" fill="#111827">${xmlEscape(line)}</text>`)
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${CARD_HEIGHT}" viewBox="0 0 ${CARD_WIDTH} ${CARD_HEIGHT}" font-family="${FONT}">
<rect width="100%" height="100%" fill="#eef2ff"/><rect width="100%" height="16" fill="#4f46e5"/>
<rect x="80" y="70" width="56" height="56" rx="12" fill="#4f46e5"/><text x="108" y="110" font-size="34" font-weight="700" fill="#ffffff" text-anchor="middle">I</text>
<text x="152" y="110" font-size="36" font-weight="800" fill="#111827">${xmlEscape(SITE_NAME)}</text>
${titleSvg}
<text x="80" y="540" font-size="34" fill="#374151">${xmlEscape(truncate(byline, 48))}</text>
<text x="1120" y="540" font-size="30" fill="#4f46e5" text-anchor="end">${xmlEscape(detail)}</text>
</svg>`;
  return sharp(Buffer.from(svg)).png({ compressionLevel: 9, palette: true }).toBuffer();
}
