import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../../test/blogs';
import { createTestApp, createUser, type TestApp, type TestUser } from '../../../test/helpers';

let t: TestApp;
let author: TestUser;
const titles: string[] = [];
beforeAll(async () => {
  t = await createTestApp();
  author = await createUser(t);
  const posts = [
    {
      title: 'Postgres indexing deep dive',
      description: 'B-trees and GIN',
      tags: ['database', 'postgres'],
      body: 'We look at partial indexes.',
    },
    {
      title: 'React server components',
      description: 'Rendering on the server',
      tags: ['react', 'frontend'],
      body: 'Suspense boundaries and streaming.',
    },
    {
      title: 'Node.js streams',
      description: 'Backpressure explained',
      tags: ['node.js', 'backend'],
      body: 'Readable and writable streams with postgres copy.',
    },
    { title: 'Algorithms: tries', description: 'Prefix trees', tags: ['algorithms'], body: 'Autocomplete with a trie.' },
    {
      title: 'Fullstack testing',
      description: 'Real databases in tests',
      tags: ['fullstack', 'database'],
      body: 'No mocks of our own code.',
    },
    { title: 'Migrating to Kysely', description: 'From an ORM', tags: ['database', 'kysely'], body: 'Migrations and dialects.' },
  ];
  for (const p of posts) {
    await createBlog(t, author, {
      title: p.title,
      description: p.description,
      tags: p.tags,
      content: { blocks: [{ type: 'paragraph', data: { text: p.body } }] },
    });
    titles.push(p.title);
  }
});
afterAll(async () => t.close());

const list = async (url: string) => {
  const res = await t.app.inject({ url });
  expect(res.statusCode).toBe(200);
  return res.json() as { blogs: { title: string; tags: string[]; creator: { username: string } }[]; hasMore: boolean };
};

describe('GET /api/v1/blogs (home feed)', () => {
  it('pages newest first, 4 at a time, with hasMore', async () => {
    const first = await list('/api/v1/blogs?limit=4&page=1');
    expect(first.blogs.map((b) => b.title)).toEqual(titles.slice().reverse().slice(0, 4));
    expect(first.hasMore).toBe(true);
    const second = await list('/api/v1/blogs?limit=4&page=2');
    expect(second.blogs.map((b) => b.title)).toEqual(titles.slice().reverse().slice(4));
    expect(second.hasMore).toBe(false);
    expect(first.blogs[0]!.creator.username).toBe(author.username);
  });

  it('caps the limit and refuses nonsense paging', async () => {
    for (const q of [
      'limit=51',
      'limit=0',
      'page=0',
      'page=abc',
      'page=0x10',
      'page=1e3',
      'page=%205',
      'limit=4.0',
      'page=',
      'page=01',
      'limit=010',
    ]) {
      const res = await t.app.inject({ url: `/api/v1/blogs?${q}` });
      expect(res.statusCode, q).toBe(400);
      expect(res.json().success).toBe(false);
    }
    expect((await t.app.inject({ url: '/api/v1/blogs?page=0x10' })).json().message).toMatch(/page.*whole number written in digits/i);
  });
});

describe('search and tags', () => {
  it('finds words in the title, description, tags and body, ranked', async () => {
    expect((await list('/api/v1/search-blogs?search=backpressure')).blogs.map((b) => b.title)).toEqual(['Node.js streams']);
    expect((await list('/api/v1/search-blogs?search=suspense')).blogs.map((b) => b.title)).toEqual(['React server components']);
    const postgres = (await list('/api/v1/search-blogs?search=postgres')).blogs.map((b) => b.title);
    expect(postgres).toHaveLength(2);
    expect(postgres[0]).toBe('Postgres indexing deep dive');
  });

  it('matches the last word as a prefix and requires every word', async () => {
    expect((await list('/api/v1/search-blogs?search=autocomp')).blogs.map((b) => b.title)).toEqual(['Algorithms: tries']);
    expect((await list('/api/v1/search-blogs?search=real%20datab')).blogs.map((b) => b.title)).toEqual(['Fullstack testing']);
    expect((await list('/api/v1/search-blogs?search=react%20postgres')).blogs).toEqual([]);
  });

  it('treats query syntax as plain words and returns an empty list for nothing', async () => {
    for (const q of ['"', 'NOT', '*', 'a OR b', "'; drop table blogs; --", '(', '   ', 'zzzzzz']) {
      const res = await t.app.inject({ url: `/api/v1/search-blogs?search=${encodeURIComponent(q)}` });
      expect(res.statusCode).toBe(200);
      expect(Array.isArray(res.json().blogs)).toBe(true);
    }
    expect((await list('/api/v1/search-blogs?search=zzzzzz')).blogs).toEqual([]);
    expect(await list('/api/v1/search-blogs?search=')).toEqual({ success: true, blogs: [], hasMore: false });
  });

  it('lists a tag newest first, case-insensitively, on both endpoints', async () => {
    const tagged = await list('/api/v1/search-blogs?tag=Database');
    expect(tagged.blogs.map((b) => b.title)).toEqual(['Migrating to Kysely', 'Fullstack testing', 'Postgres indexing deep dive']);
    expect((await list('/api/v1/blogs?tag=node.js')).blogs.map((b) => b.title)).toEqual(['Node.js streams']);
    const paged = await list('/api/v1/search-blogs?tag=database&limit=2&page=1');
    expect(paged.hasMore).toBe(true);
    expect((await list('/api/v1/search-blogs?tag=database&limit=2&page=2')).blogs.map((b) => b.title)).toEqual([
      'Postgres indexing deep dive',
    ]);
  });
});
