import { POPULAR_TOPICS, tagSlug } from '@inkwell/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../../test/blogs';
import { createTestApp, createUser, type TestApp, type TestUser } from '../../../test/helpers';
import { up as canonicalTagsMigration } from '../../db/migrations/0011_canonical_tags';

let t: TestApp;
let author: TestUser;
beforeAll(async () => {
  t = await createTestApp({ responseCache: false });
  author = await createUser(t);
});
afterAll(async () => t.close());

const blogIdsOf = async (url: string) => ((await t.app.inject({ url })).json().blogs as { blogId: string }[]).map((b) => b.blogId).sort();
const storedTags = async (id: string) =>
  (await t.database.db.selectFrom('blog_tags').select('tag').where('blog_id', '=', id).orderBy('tag').execute()).map((r) => r.tag);

describe('canonical tags (docs/decisions.md)', () => {
  it('saves a tag in its canonical form, whichever way it was typed', async () => {
    const blog = await createBlog(t, author, { tags: ['Node.js', 'node js', 'Full-Stack', 'C++', 'c#', 'web_dev'] });
    const page = (await t.app.inject({ url: `/api/v1/blogs/${blog.blogId}` })).json().blog;
    expect(page.tags).toEqual(['nodejs', 'fullstack', 'c++', 'c#', 'webdev']);
    expect(await storedTags(blog._id)).toEqual(['c#', 'c++', 'fullstack', 'nodejs', 'webdev']);
  });

  it('finds a tag by any of its spellings on /blogs and /search-blogs', async () => {
    const blog = await createBlog(t, author, { title: 'Spellings', tags: ['express'] });
    for (const tag of ['Express', 'ex.press', 'EX-PRESS', ' express ']) {
      for (const path of ['/api/v1/blogs', '/api/v1/search-blogs']) {
        expect(await blogIdsOf(`${path}?tag=${encodeURIComponent(tag)}`)).toEqual([blog.blogId]);
      }
    }
  });

  it('lands every Popular Topic on the posts carrying it', async () => {
    const made: Record<string, string> = {};
    for (const topic of POPULAR_TOPICS) made[topic] = (await createBlog(t, author, { title: `On ${topic}`, tags: [topic] })).blogId;
    for (const topic of POPULAR_TOPICS) {
      expect(await blogIdsOf(`/api/v1/blogs?tag=${encodeURIComponent(tagSlug(topic))}&limit=50`)).toContain(made[topic]);
    }
  });

  it('migration 0011 rewrites stored tags to the canonical form and merges duplicates', async () => {
    const blog = await createBlog(t, author, { title: 'Old data', tags: ['nodejs'] });
    const other = await createBlog(t, author, { title: 'Untouched', tags: ['react'] });
    const { db } = t.database;
    // As stored before: one post tagged both 'node.js' and 'nodejs', plus 'full-stack'.
    await db
      .updateTable('blogs')
      .set({ tags: JSON.stringify(['node.js', 'nodejs', 'full-stack']) })
      .where('id', '=', blog._id)
      .execute();
    const row = await db.selectFrom('blog_tags').selectAll().where('blog_id', '=', blog._id).executeTakeFirstOrThrow();
    await db
      .insertInto('blog_tags')
      .values([
        { ...row, tag: 'node.js' },
        { ...row, tag: 'full-stack' },
      ])
      .execute();
    expect(await blogIdsOf('/api/v1/blogs?tag=fullstack')).not.toContain(blog.blogId);

    await canonicalTagsMigration(db);

    expect(await storedTags(blog._id)).toEqual(['fullstack', 'nodejs']);
    expect((await t.app.inject({ url: `/api/v1/blogs/${blog.blogId}` })).json().blog.tags).toEqual(['nodejs', 'fullstack']);
    expect(await blogIdsOf('/api/v1/blogs?tag=full-stack')).toContain(blog.blogId);
    expect(await storedTags(other._id)).toEqual(['react']);
    await canonicalTagsMigration(db); // running it again changes nothing
    expect(await storedTags(blog._id)).toEqual(['fullstack', 'nodejs']);
  });
});
