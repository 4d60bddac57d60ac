// The server HTML of `/` and `/blog/{id}` for a representative post and feed, rendered by the same
// code as the server's pages (apps/server/src/pages) into the built index.html. Printed as JSON
// for scripts/web-budget.mjs, which counts it in the first load.
import path from 'node:path';
import type { Blog, BlogCard } from '@inkwell/core';
import { articleScreen } from '../apps/server/src/pages/article';
import { PageDocument } from '../apps/server/src/pages/document';
import { SITE_DESCRIPTION } from '../apps/server/src/pages/head';
import { pageLayout } from '../apps/server/src/pages/layout';
import { homeScreen } from '../apps/server/src/pages/lists';

const words = (n: number, seed: number) =>
  Array.from(
    { length: n },
    (_, i) => ['query', 'index', 'latency', 'schema', 'server', 'render', 'cache', 'token'][(i * 7 + seed) % 8],
  ).join(' ');

// About 2,000 words: what a long tutorial holds (headers, paragraphs, a list, code, a table, a quote).
const blocks = Array.from({ length: 36 }, (_, i) => {
  if (i % 9 === 0) return { type: 'header', data: { text: `Part ${i / 9 + 1}: ${words(5, i)}`, level: 2 } };
  if (i % 9 === 4)
    return { type: 'list', data: { style: 'unordered', items: [1, 2, 3, 4].map((n) => ({ content: words(12, n + i), items: [] })) } };
  if (i % 9 === 6)
    return {
      type: 'code',
      data: {
        code: Array.from(
          { length: 12 },
          (_, n) => `const ${words(1, n)}${n} = await db.selectFrom('blogs').where('id', '=', id${n});`,
        ).join('\n'),
        language: 'typescript',
      },
    };
  if (i === 17)
    return {
      type: 'table',
      data: {
        withHeadings: true,
        content: [
          ['Engine', 'p50', 'p99'],
          ['SQLite', '1 ms', '5 ms'],
          ['PostgreSQL', '2 ms', '9 ms'],
        ],
      },
    };
  if (i === 25) return { type: 'quote', data: { text: words(20, i), caption: 'Someone wise' } };
  return {
    type: 'paragraph',
    data: { text: `${words(70, i)} with <b>bold</b>, <i>italic</i> and <a href="https://example.com/${i}">a link</a>.` },
  };
});

const creator = {
  _id: '0190a0b0-0000-7000-8000-000000000001',
  name: 'Ada Lovelace',
  username: 'ada',
  profilePic: '/uploads/avatar/2026/11/ada.webp',
};
const card = (i: number): BlogCard => ({
  _id: `0190a0b0-0000-7000-8000-00000000010${i}`,
  blogId: `a-long-post-about-databases-${i}x7k2q9`,
  title: `A long post about databases, part ${i}`,
  description: words(30, i),
  image: i % 2 ? `/uploads/featured/2026/11/cover-${i}.webp` : null,
  tags: ['databases', 'performance', 'sql'],
  draft: false,
  creator,
  readingTime: 8,
  likeCount: 12,
  commentCount: 3,
  saveCount: 4,
  createdAt: '2026-11-20T10:00:00.000Z',
});
const blog: Blog = {
  ...card(1),
  content: { blocks } as Blog['content'],
  updatedAt: '2026-11-21T10:00:00.000Z',
  isLiked: false,
  isSaved: false,
  isFollowing: false,
};

const document = PageDocument.fromDist(path.resolve(import.meta.dirname, '../apps/web/dist'));
const head = (title: string) => ({
  title,
  description: SITE_DESCRIPTION,
  canonical: 'https://blog.example.com/',
  ogType: 'article' as const,
  image: { url: 'https://blog.example.com/uploads/cards/x.png', width: 1200, height: 630, alt: title },
  article: { publishedTime: blog.createdAt, modifiedTime: blog.updatedAt, authorUrl: 'https://blog.example.com/@ada', tags: blog.tags },
  jsonLd: [{ '@type': 'BlogPosting', headline: blog.title, description: blog.description, keywords: blog.tags.join(', ') }],
});
process.stdout.write(
  JSON.stringify({
    '/': document.render(head('Inkwell'), pageLayout(homeScreen([1, 2, 3, 4].map(card)))),
    '/blog/{id}': document.render(head(blog.title), pageLayout(articleScreen(blog))),
  }),
);
