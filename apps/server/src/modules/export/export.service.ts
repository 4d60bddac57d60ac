import { type PassThrough, Readable } from 'node:stream';
import type { Block, BlogContent } from '@inkwell/core';
import { postToMarkdown } from '@inkwell/core/markdown';
import { ZipFile } from 'yazl';
import { notFound } from '../../lib/errors';
import type { BlogsService } from '../blogs/blogs.service';
import type { NewsletterRepository } from '../newsletter/newsletter.repo';
import { EXPORT_PAGE_SIZE, type ExportRepository } from './export.repo';

export interface ExportDeps {
  exports: ExportRepository;
  blogs: BlogsService;
  /** The reader's digest choice and the newsletter subscription of their address. */
  newsletter: NewsletterRepository;
  /** Uploaded images are written with absolute URLs, so an exported file works anywhere. */
  publicUrl: string;
}

type PostRow = Awaited<ReturnType<ExportRepository['posts']>>[number];

function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** Keyset pages of any export query, one row at a time; a page is read only when the last is used. */
async function* rowsOf<T>(page: (after: string | null) => Promise<T[]>, key: (row: T) => string): AsyncGenerator<T> {
  let after: string | null = null;
  for (;;) {
    const rows = await page(after);
    yield* rows;
    const last = rows[rows.length - 1];
    if (rows.length < EXPORT_PAGE_SIZE || !last) return;
    after = key(last);
  }
}

/** A JSON array written element by element. */
async function* jsonArray<T>(name: string, rows: AsyncIterable<T>, present: (row: T) => unknown, last = false): AsyncGenerator<string> {
  yield `  ${JSON.stringify(name)}: [`;
  let first = true;
  for await (const row of rows) {
    yield `${first ? '' : ','}\n    ${JSON.stringify(present(row))}`;
    first = false;
  }
  yield `${first ? '' : '\n  '}]${last ? '' : ','}\n`;
}

/** Markdown of one post (issue 16) and the whole account's data as a streamed zip ('Download my data'). */
export class ExportService {
  constructor(private readonly deps: ExportDeps) {}

  /** One post as a Markdown file; who may export it is who may read it (drafts only their author). */
  async postMarkdown(blogId: string, viewerId: string | null): Promise<{ fileName: string; markdown: string }> {
    const blog = await this.deps.blogs.get(blogId, viewerId);
    return {
      fileName: `${fileSafe(blog.blogId)}.md`,
      markdown: postToMarkdown({ ...blog, image: this.absolute(blog.image), content: this.withAbsoluteImages(blog.content) }),
    };
  }

  /**
   * The zip of 'Download my data': data.json (profile, posts with their schedule and series,
   * series, comments, likes, saves, follows)
   * and one Markdown file a post (posts/ and drafts/). Entries are written one after another and
   * each is read from the database in pages as the client takes the bytes (backpressure), so a
   * big account costs no more memory than a small one.
   */
  async accountArchive(userId: string): Promise<{ fileName: string; stream: Readable }> {
    const profile = await this.deps.exports.profile(userId);
    if (!profile) throw notFound('User not found');
    const zip = new ZipFile();
    // yazl's output is a PassThrough (its types say only ReadableStream).
    const output = zip.outputStream as unknown as PassThrough;
    let current: Readable | null = null;
    let done = false;
    // A client that goes away stops the export: the entry being written is closed, no more are read.
    output.on('close', () => {
      if (!done) current?.destroy();
    });
    const add = (path: string, content: Readable) =>
      new Promise<void>((resolve, reject) => {
        current = content;
        content.once('end', resolve).once('close', resolve).once('error', reject);
        zip.addReadStream(content, path);
      });
    const run = async () => {
      await add('data.json', Readable.from(this.dataJson(userId, profile)));
      for await (const post of this.postRows(userId)) {
        if (output.destroyed) return;
        const folder = post.draft ? 'drafts' : 'posts';
        await add(`${folder}/${fileSafe(post.blog_id)}.md`, Readable.from([this.postFile(post)]));
      }
      done = true;
      zip.end();
    };
    run().catch((error) => output.destroy(error));
    const date = new Date().toISOString().slice(0, 10);
    return { fileName: `inkwell-${fileSafe(profile.username)}-${date}.zip`, stream: output };
  }

  private postRows(userId: string) {
    return rowsOf(
      (after) => this.deps.exports.posts(userId, after),
      (row) => row.id,
    );
  }

  private postFile(post: PostRow): string {
    return postToMarkdown({
      title: post.title,
      description: post.description,
      tags: parseJson<string[]>(post.tags, []),
      image: this.absolute(post.image),
      createdAt: post.created_at,
      draft: post.draft === 1 || (post.draft as unknown) === true,
      scheduledAt: post.scheduled_at,
      series: seriesOf(post),
      content: this.withAbsoluteImages(parseJson<BlogContent>(post.content, { blocks: [] })),
    });
  }

  /** Every series of the account with its posts in order, read a page of series at a time. */
  private async *seriesRows(userId: string) {
    const { exports } = this.deps;
    let after: string | null = null;
    for (;;) {
      const page = await exports.series(userId, after);
      const members = await exports.seriesPosts(page.map((s) => s.id));
      for (const s of page) {
        const posts = members.filter((m) => m.series_id === s.id);
        yield { ...s, posts };
      }
      const last = page[page.length - 1];
      if (page.length < EXPORT_PAGE_SIZE || !last) return;
      after = last.id;
    }
  }

  private async *dataJson(userId: string, profile: NonNullable<Awaited<ReturnType<ExportRepository['profile']>>>) {
    const { exports } = this.deps;
    const flag = (v: unknown) => v === 1 || v === true;
    yield `{\n  "exportedAt": ${JSON.stringify(new Date().toISOString())},\n  "profile": ${JSON.stringify({
      _id: profile.id,
      email: profile.email,
      name: profile.name,
      username: profile.username,
      bio: profile.bio,
      profilePic: this.absolute(profile.profile_pic),
      googleAuth: flag(profile.google_auth),
      emailVerified: flag(profile.email_verified),
      showLikedBlogs: flag(profile.show_liked_blogs),
      showSavedBlogs: flag(profile.show_saved_blogs),
      followerCount: profile.follower_count,
      followingCount: profile.following_count,
      publishedCount: profile.published_count,
      createdAt: profile.created_at,
      updatedAt: profile.updated_at,
      emailDigest: await this.deps.newsletter.digestFrequency(userId),
      newsletter: (await this.deps.newsletter.subscriptionOf(profile.email)) ?? null,
    })},\n`;
    yield* jsonArray('posts', this.postRows(userId), (p) => ({
      _id: p.id,
      blogId: p.blog_id,
      title: p.title,
      description: p.description,
      image: this.absolute(p.image),
      tags: parseJson<string[]>(p.tags, []),
      draft: flag(p.draft),
      /** A draft's scheduled publishing time, null when none. */
      scheduledAt: p.scheduled_at ?? null,
      series: p.series_id ? { _id: p.series_id, ...seriesOf(p) } : null,
      content: parseJson<BlogContent>(p.content, { blocks: [] }),
      likeCount: p.like_count,
      commentCount: p.comment_count,
      saveCount: p.save_count,
      createdAt: p.created_at,
      updatedAt: p.updated_at,
    }));
    yield* jsonArray('series', this.seriesRows(userId), (row) => ({
      _id: row.id,
      title: row.title,
      createdAt: row.created_at,
      posts: row.posts.map((m, i) => ({ blogId: m.blog_id, title: m.title, part: i + 1, draft: flag(m.draft) })),
    }));
    yield* jsonArray(
      'comments',
      rowsOf(
        (after) => exports.comments(userId, after),
        (c) => c.id,
      ),
      (c) => ({
        _id: c.id,
        blogId: c.blog_slug,
        blogTitle: c.blog_title,
        parentCommentId: c.parent_id,
        comment: c.comment,
        likeCount: c.like_count,
        replyCount: c.reply_count,
        createdAt: c.created_at,
        updatedAt: c.updated_at,
      }),
    );
    for (const table of ['likes', 'saves'] as const) {
      yield* jsonArray(
        table,
        rowsOf(
          (after) => exports.reactions(table, userId, after),
          (r) => r.key,
        ),
        (r) => ({ blogId: r.blog_id, title: r.title, createdAt: r.created_at }),
      );
    }
    yield* jsonArray(
      'commentLikes',
      rowsOf(
        (after) => exports.commentLikes(userId, after),
        (r) => r.key,
      ),
      (r) => ({ commentId: r.key, blogId: r.blog_id, createdAt: r.created_at }),
    );
    for (const direction of ['following', 'followers'] as const) {
      yield* jsonArray(
        direction,
        rowsOf(
          (after) => exports.follows(direction, userId, after),
          (r) => r.key,
        ),
        (r) => ({ _id: r.key, username: r.username, name: r.name, createdAt: r.created_at }),
        direction === 'followers',
      );
    }
    yield '}\n';
  }

  private absolute(url: string | null): string | null {
    return url?.startsWith('/') && !url.startsWith('//') ? `${this.deps.publicUrl}${url}` : url;
  }

  private withAbsoluteImages(content: BlogContent): BlogContent {
    const blocks = content.blocks.map((block): Block => {
      if (block.type !== 'image') return block;
      return { ...block, data: { ...block.data, file: { url: this.absolute(block.data.file.url) ?? '' } } };
    });
    return { ...content, blocks };
  }
}

/** A post's series title and part (1-based), null when it is in none. */
function seriesOf(post: Pick<PostRow, 'series_title' | 'series_part'>): { title: string; part: number } | null {
  return post.series_title ? { title: post.series_title, part: Number(post.series_part) } : null;
}

/** A file name made of the characters every file system and unzip tool accepts. */
export function fileSafe(name: string): string {
  return (
    name
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^[.-]+/, '')
      .slice(0, 120) || 'post'
  );
}
