/// <reference types="node" />
// The corpus is read from disk: this test file (only) uses Node's fs; core itself stays runtime-neutral.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Block } from '../schemas/blocks';
import { MarkdownImportError, type MarkdownPost, markdownToPost, postToMarkdown } from './index';

const FIXTURES = path.join(import.meta.dirname, 'fixtures');
const corpus = readdirSync(FIXTURES)
  .filter((file) => file.endsWith('.md'))
  .map((file) => ({ file, markdown: readFileSync(path.join(FIXTURES, file), 'utf8') }));

const exportOf = (post: MarkdownPost) =>
  postToMarkdown({ ...post, image: post.coverImage, createdAt: post.date, draft: post.draft ?? false });

const byFile = (file: string) => markdownToPost(corpus.find((c) => c.file === file)!.markdown);
const ofType = <T extends Block['type']>(post: MarkdownPost, type: T) =>
  post.content.blocks.filter((b): b is Extract<Block, { type: T }> => b.type === type);

describe('Markdown round trip on the fixtures corpus', () => {
  it('has a corpus', () => expect(corpus.length).toBeGreaterThanOrEqual(4));

  for (const { file, markdown } of corpus) {
    it(`${file}: import, export and import again keeps every block and the front matter`, () => {
      const imported = markdownToPost(markdown);
      expect(imported.content.blocks.length).toBeGreaterThan(5);
      const exported = exportOf(imported);
      const again = markdownToPost(exported);
      expect(again.content).toEqual(imported.content);
      // Export writes `draft: false` where the file did not say.
      expect({ ...again, content: null }).toEqual({ ...imported, draft: imported.draft ?? false, content: null });
      // Export is stable: a file written by export comes back out byte for byte.
      expect(exportOf(again)).toBe(exported);
    });
  }

  it('covers every block type, list style and table form', () => {
    const blocks = corpus.flatMap(({ markdown }) => markdownToPost(markdown).content.blocks);
    const types = new Set(blocks.map((b) => b.type));
    for (const type of ['paragraph', 'header', 'list', 'image', 'embed', 'code', 'quote', 'delimiter', 'table']) {
      expect(types, type).toContain(type);
    }
    const lists = blocks.filter((b) => b.type === 'list');
    expect(new Set(lists.map((b) => b.data.style))).toEqual(new Set(['ordered', 'unordered', 'checklist']));
    expect(lists.some((b) => b.data.items.some((i) => i.items.length > 0))).toBe(true);
    const tables = blocks.filter((b) => b.type === 'table');
    expect(new Set(tables.map((b) => b.data.withHeadings))).toEqual(new Set([true, false]));
    expect(new Set(blocks.filter((b) => b.type === 'header').map((b) => b.data.level))).toEqual(new Set([2, 3, 4]));
  });
});

describe('markdownToPost', () => {
  it('reads dev.to front matter: comma tags, cover_image, date, published', () => {
    const post = byFile('devto-post.md');
    expect(post.title).toBe('Building a REST API with Fastify and TypeScript');
    expect(post.description).toMatch(/^A practical walk-through/);
    expect(post.tags).toEqual(['node', 'typescript', 'webdev', 'tutorial']);
    expect(post.coverImage).toBe('https://images.example.com/covers/fastify-api.png');
    expect(post.date).toBe('2024-03-18T09:30:00Z');
    expect(post.draft).toBe(false);
  });

  it('reads Hashnode front matter (subtitle, tag list, coverImage) with tags in their canonical form', () => {
    const post = byFile('hashnode-checklist.md');
    expect(post.description).toBe('Everything we checked before moving 40 services, in order');
    expect(post.tags).toEqual(['kubernetes', 'devops', 'cloudnative']);
    expect(post.coverImage).toMatch(/k8s-cover\.jpg$/);
    const [embed] = ofType(post, 'embed');
    expect(embed?.data).toMatchObject({ service: 'youtube', source: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' });
  });

  it('takes the title from a leading # heading when there is no front matter', () => {
    const post = byFile('jekyll-notes.md');
    expect(post.title).toBe('Notes on Rust ownership');
    expect(post.content.blocks[0]?.type).toBe('paragraph');
  });

  it('converts inline formatting, code fences with language, quotes with captions and links', () => {
    const post = byFile('devto-post.md');
    const [first] = ofType(post, 'paragraph');
    expect(first?.data.text).toContain('<b>fastest</b>');
    expect(first?.data.text).toContain('<i>TypeScript</i>');
    expect(ofType(post, 'code').map((c) => c.data.language)).toEqual(['bash', 'typescript']);
    expect(ofType(post, 'quote')[0]?.data).toMatchObject({
      text: 'Premature optimization is the root of all evil.',
      caption: 'Donald Knuth',
    });
    expect(ofType(post, 'image')[0]?.data).toMatchObject({
      file: { url: 'https://images.example.com/posts/inject-output.png' },
      caption: 'Test output in the terminal',
    });
    const last = ofType(post, 'paragraph').at(-1)?.data.text;
    expect(last).toContain('<a href="https://mastodon.social/@example">Mastodon</a>');
    expect(last).toContain('<a href="mailto:writer@example.com">me</a>');
    const inlineCode = ofType(post, 'paragraph').find((p) => p.data.text.includes('app.inject'));
    expect(inlineCode?.data.text).toContain('<code class="inline-code">app.inject()</code>');
  });

  it('keeps underline, marker and line breaks, a draft flag and Hugo keywords; a table without headings', () => {
    const post = byFile('hugo-release.md');
    expect(post.draft).toBe(true);
    expect(post.tags).toEqual(['release', 'changelog']);
    expect(post.date).toBe('2025-01-07');
    const [intro, moved] = ofType(post, 'paragraph');
    expect(intro?.data.text).toContain('<u>one breaking change</u>');
    expect(intro?.data.text).toContain('<mark class="cdx-marker">new features</mark>');
    expect(moved?.data.text).toContain('<br />Run');
    expect(ofType(post, 'table')[0]?.data).toEqual({
      withHeadings: false,
      content: [
        ['old flag', 'new flag'],
        ['<code class="inline-code">-v</code>', '<code class="inline-code">--verbose</code>'],
      ],
    });
    expect(ofType(post, 'code')[0]?.data.language).toBe('plaintext');
  });

  it('refuses invalid front matter and oversized files with a readable error', () => {
    expect(() => markdownToPost('---\ntitle: [unclosed\n---\nbody')).toThrow(MarkdownImportError);
    expect(() => markdownToPost('x'.repeat(1024 * 1024 + 1))).toThrow(/too large/);
  });
});

describe('Markdown import neutralises HTML and unsafe links', () => {
  // A few payloads of /work/shared/fixtures/xss-payloads.txt (the server test runs all of them).
  const payloads = [
    '<img src=x onerror=alert(1)>',
    '<a href="javascript:alert(1)">@shafigullin<a>',
    '<svg><![CDATA[><image xlink:href="]]><img src=x onerror=alert(2)//"></svg>',
    '<div id="40"><style><img src="</style><img src=x onerror=alert(40)//">//["\'`-->]]>]</div>',
    '<b><noscript><!-- </noscript><img src=x onerror=alert(1) --></noscript>',
  ];
  const allHtml = (post: MarkdownPost) => JSON.stringify(post.content);
  const tagsOf = (html: string) => [...html.matchAll(/<([a-z0-9]+)/gi)].map((m) => m[1]?.toLowerCase());

  for (const payload of payloads) {
    it(`escapes raw HTML: ${payload.slice(0, 40)}`, () => {
      const post = markdownToPost(`Before ${payload} after\n\n${payload}\n\n- ${payload}\n\n| a |\n| --- |\n| ${payload} |\n`);
      const html = post.content.blocks.map((b) => JSON.stringify(b.data)).join('');
      for (const tag of tagsOf(html.replace(/\\"/g, '"'))) expect(['b', 'i', 'u', 'mark', 'a', 'code', 'br'], payload).toContain(tag);
      expect(allHtml(post)).not.toMatch(/<(img|svg|script|style|div)/i);
    });
  }

  it('drops javascript:, data: and vbscript: links and images but keeps their text', () => {
    const post = markdownToPost(
      '[one](javascript:alert(1)) [two](JaVaScRiPt:alert(1)) [three](data:text/html;base64,PHNjcmlwdD4=) [four](vbscript:msgbox) <javascript:alert(5)>\n\n![x](javascript:alert(6))',
    );
    const html = allHtml(post);
    expect(html).not.toMatch(/href=\\?"(javascript|data|vbscript):/i);
    expect(html).not.toContain('<a ');
    expect(ofType(post, 'paragraph')[0]?.data.text).toContain('one two three four');
    expect(ofType(post, 'image')).toHaveLength(0);
  });
});
