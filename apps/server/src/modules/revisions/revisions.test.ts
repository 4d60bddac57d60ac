import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../../test/blogs';
import { bearer, createTestApp, createUser, type TestApp, type TestUser } from '../../../test/helpers';

let t: TestApp;
let author: TestUser;
let reader: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  author = await createUser(t, { name: 'Ada Author' });
  reader = await createUser(t, { name: 'Rea Reader' });
});
afterAll(async () => t.close());

const text = (words: string) => ({ blocks: [{ type: 'paragraph', data: { text: words } }] });
const send = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, token: string | null, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: token ? bearer(token) : {}, ...(payload ? { payload } : {}) });
const autosave = (blogId: string, token: string, body: Record<string, unknown>) =>
  send('PUT', `/blogs/${blogId}/autosave`, token, { title: 'T', description: 'D', tags: [], content: text('x'), ...body });
const countRevisions = async (blogDbId: string) =>
  Number(
    (
      await t.database.db
        .selectFrom('blog_revisions')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('blog_id', '=', blogDbId)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('autosave', () => {
  it('turns a new post into a draft on its first autosave, then keeps later text pending', async () => {
    const first = await send('POST', '/blogs/autosave', author.token, {
      title: 'Work in progress',
      description: '',
      content: text('first words'),
    });
    expect(first.statusCode).toBe(201);
    const { blogId, version } = first.json();
    expect(version).toBe(1);
    const draft = (await send('GET', `/blogs/${blogId}`, author.token)).json().blog;
    expect(draft).toMatchObject({ title: 'Work in progress', draft: true });
    expect(draft.content.blocks[0].data.text).toBe('first words');
    // Nobody else sees the draft.
    expect((await send('GET', `/blogs/${blogId}`, reader.token)).statusCode).toBe(404);

    const next = await autosave(blogId, author.token, { title: 'Work in progress', content: text('more words'), version: 1 });
    expect(next.statusCode).toBe(200);
    expect(next.json().version).toBe(2);
    const pending = (await send('GET', `/blogs/${blogId}/autosave`, author.token)).json();
    expect(pending.version).toBe(2);
    expect(pending.autosave.content.blocks[0].data.text).toBe('more words');
  });

  it('refuses a new post without a title and content over the limits', async () => {
    expect((await send('POST', '/blogs/autosave', author.token, { title: '  ', content: text('x') })).statusCode).toBe(400);
    const huge = { blocks: Array.from({ length: 5000 }, () => ({ type: 'paragraph', data: { text: 'x' } })) };
    const post = await createBlog(t, author, { draft: true });
    const res = await autosave(post.blogId, author.token, { content: huge, version: 1 });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });

  it('keeps an edit of a published post pending: readers see the published text until Update Blog', async () => {
    const post = await createBlog(t, author, { title: 'Live post', content: text('published words') });
    const saved = await autosave(post.blogId, author.token, { title: 'Live post', content: text('secret new words'), version: 1 });
    expect(saved.statusCode).toBe(200);
    for (const token of [null, reader.token, author.token]) {
      const page = (await send('GET', `/blogs/${post.blogId}`, token)).json().blog;
      expect(page.content.blocks[0].data.text).toBe('published words');
    }
    const search = (await send('GET', '/search-blogs?search=secret', null)).json();
    expect(search.blogs.map((b: { blogId: string }) => b.blogId)).not.toContain(post.blogId);
    // Only the author reads the pending text.
    const peek = await send('GET', `/blogs/${post.blogId}/autosave`, reader.token);
    expect([peek.statusCode, peek.json().message]).toEqual([403, 'Only the author can see this']);
    expect((await autosave(post.blogId, reader.token, { version: 2 })).statusCode).toBe(403);

    const update = await send('PATCH', `/blogs/${post.blogId}`, author.token, {
      title: 'Live post',
      description: 'How to use it',
      content: text('secret new words'),
      version: 2,
    });
    expect(update.statusCode).toBe(200);
    const page = (await send('GET', `/blogs/${post.blogId}`, null)).json().blog;
    expect(page.content.blocks[0].data.text).toBe('secret new words');
    const pending = (await send('GET', `/blogs/${post.blogId}/autosave`, author.token)).json();
    expect(pending).toMatchObject({ version: 3, autosave: null });
  });

  it('answers 409 to a save of a stale version, from autosave or update, and lets the author overwrite', async () => {
    const post = await createBlog(t, author, { title: 'Two tabs' });
    const tabA = await autosave(post.blogId, author.token, { content: text('tab A'), version: 1 });
    expect(tabA.json().version).toBe(2);
    const tabB = await autosave(post.blogId, author.token, { content: text('tab B'), version: 1 });
    expect(tabB.statusCode).toBe(409);
    expect(tabB.json()).toMatchObject({ success: false, message: expect.stringContaining('another tab') });
    const staleUpdate = await send('PATCH', `/blogs/${post.blogId}`, author.token, {
      title: 'Two tabs',
      description: 'd',
      content: text('tab B'),
      version: 1,
    });
    expect(staleUpdate.statusCode).toBe(409);
    expect((await send('GET', `/blogs/${post.blogId}/autosave`, author.token)).json().autosave.content.blocks[0].data.text).toBe('tab A');

    const overwrite = await autosave(post.blogId, author.token, { content: text('tab B'), force: true });
    expect(overwrite.json().version).toBe(3);
    expect((await send('GET', `/blogs/${post.blogId}/autosave`, author.token)).json().autosave.content.blocks[0].data.text).toBe('tab B');
    // A client that sends no version (SPEC.md PATCH) is not checked.
    const legacy = await send('PATCH', `/blogs/${post.blogId}`, author.token, {
      title: 'Two tabs',
      description: 'd',
      content: text('legacy'),
    });
    expect(legacy.statusCode).toBe(200);
    expect((await send('GET', `/blogs/${post.blogId}/autosave`, author.token)).json()).toMatchObject({ version: 4, autosave: null });
  });

  it('hides a stranger’s draft (404) and needs a session (401)', async () => {
    const draft = await createBlog(t, author, { draft: true });
    expect((await autosave(draft.blogId, reader.token, { version: 1 })).statusCode).toBe(404);
    expect((await send('GET', `/blogs/${draft.blogId}/revisions`, reader.token)).statusCode).toBe(404);
    expect((await send('PUT', `/blogs/${draft.blogId}/autosave`, null, { version: 1 })).statusCode).toBe(401);
  });
});

describe('revision history', () => {
  it('keeps the previous version on every update, lists it for the author only, and restores it as a new revision', async () => {
    const post = await createBlog(t, author, { title: 'Version one', content: text('one') });
    const patch = (title: string, words: string, version?: number) =>
      send('PATCH', `/blogs/${post.blogId}`, author.token, { title, description: 'd', content: text(words), version });
    expect((await patch('Version two', 'two', 1)).statusCode).toBe(200);
    expect((await patch('Version three', 'three', 2)).statusCode).toBe(200);

    const list = await send('GET', `/blogs/${post.blogId}/revisions`, author.token);
    expect(list.statusCode).toBe(200);
    expect(list.json().version).toBe(3);
    const revisions = list.json().revisions;
    expect(revisions.map((r: { title: string }) => r.title)).toEqual(['Version two', 'Version one']);
    expect(revisions[1]).toMatchObject({ version: 1, reason: 'update', draft: false });

    const one = await send('GET', `/blogs/${post.blogId}/revisions/${revisions[1]._id}`, author.token);
    expect(one.json().revision).toMatchObject({ title: 'Version one', tags: ['kysely', 'sql'], content: text('one') });
    const history = await send('GET', `/blogs/${post.blogId}/revisions`, reader.token);
    expect([history.statusCode, history.json().message]).toEqual([403, 'Only the author can see this']);
    expect((await send('GET', `/blogs/${post.blogId}/revisions/${revisions[1]._id}`, reader.token)).statusCode).toBe(403);
    expect((await send('GET', `/blogs/${post.blogId}/revisions/not-a-revision`, author.token)).statusCode).toBe(404);
    expect((await send('POST', `/blogs/${post.blogId}/revisions/${revisions[1]._id}/restore`, reader.token, {})).statusCode).toBe(403);
    // A restore from a stale version conflicts like any save.
    expect(
      (await send('POST', `/blogs/${post.blogId}/revisions/${revisions[1]._id}/restore`, author.token, { version: 1 })).statusCode,
    ).toBe(409);

    const restore = await send('POST', `/blogs/${post.blogId}/revisions/${revisions[1]._id}/restore`, author.token, { version: 3 });
    expect(restore.statusCode).toBe(200);
    expect(restore.json().version).toBe(4);
    const page = (await send('GET', `/blogs/${post.blogId}`, null)).json().blog;
    expect(page).toMatchObject({ title: 'Version one', draft: false });
    expect(page.content.blocks[0].data.text).toBe('one');
    const after = (await send('GET', `/blogs/${post.blogId}/revisions`, author.token)).json().revisions;
    expect(after[0]).toMatchObject({ title: 'Version three', reason: 'restore', version: 3 });
    expect(after).toHaveLength(3);
  });

  it('keeps pending work in progress as a revision when a restore replaces it', async () => {
    const post = await createBlog(t, author, { title: 'Restore over pending', content: text('first') });
    await send('PATCH', `/blogs/${post.blogId}`, author.token, {
      title: 'Restore over pending',
      description: 'd',
      content: text('second'),
    });
    expect(
      (await autosave(post.blogId, author.token, { title: 'Restore over pending', content: text('typing'), version: 2 })).statusCode,
    ).toBe(200);
    const [old] = (await send('GET', `/blogs/${post.blogId}/revisions`, author.token)).json().revisions;
    const restore = await send('POST', `/blogs/${post.blogId}/revisions/${old._id}/restore`, author.token, { version: 3 });
    expect(restore.statusCode).toBe(200);
    const titles = [];
    for (const r of (await send('GET', `/blogs/${post.blogId}/revisions`, author.token)).json().revisions) {
      const one = (await send('GET', `/blogs/${post.blogId}/revisions/${r._id}`, author.token)).json().revision;
      titles.push(one.content.blocks[0].data.text);
    }
    expect(titles).toEqual(['typing', 'second', 'first']);
    expect((await send('GET', `/blogs/${post.blogId}/autosave`, author.token)).json().autosave).toBeNull();
  });

  it('records publishing a draft, keeps the newest 50 per post', async () => {
    const post = await createBlog(t, author, { title: 'Busy post', draft: true, content: text('v0') });
    const first = await send('PATCH', `/blogs/${post.blogId}`, author.token, {
      title: 'Busy post',
      description: 'd',
      content: text('v1'),
      draft: false,
    });
    expect(first.statusCode).toBe(200);
    expect((await send('GET', `/blogs/${post.blogId}/revisions`, author.token)).json().revisions[0]).toMatchObject({
      reason: 'publish',
      draft: true,
    });
    for (let i = 2; i <= 55; i++) {
      const res = await send('PATCH', `/blogs/${post.blogId}`, author.token, {
        title: `Busy post ${i}`,
        description: 'd',
        content: text(`v${i}`),
      });
      expect(res.statusCode).toBe(200);
    }
    const { revisions } = (await send('GET', `/blogs/${post.blogId}/revisions`, author.token)).json();
    expect(revisions).toHaveLength(50);
    expect(revisions[0].title).toBe('Busy post 54');
    expect(revisions[49].title).toBe('Busy post 5');
    expect(await countRevisions((await send('GET', `/blogs/${post.blogId}`, null)).json().blog._id)).toBe(50);
  });

  it('goes with the post and with the account', async () => {
    const writer = await createUser(t, { name: 'Gone Soon' });
    const post = await createBlog(t, writer, { title: 'Short lived' });
    const kept = await createBlog(t, writer, { title: 'Kept until the account goes' });
    for (const p of [post, kept]) {
      await send('PATCH', `/blogs/${p.blogId}`, writer.token, { title: 'Edited', description: 'd', content: text('e') });
      await autosave(p.blogId, writer.token, { version: 2 });
    }
    expect(await countRevisions(post._id)).toBe(1);
    expect((await send('DELETE', `/blogs/${post.blogId}`, writer.token)).statusCode).toBe(200);
    expect(await countRevisions(post._id)).toBe(0);
    const left = await t.database.db.selectFrom('blog_autosaves').select('blog_id').where('blog_id', '=', post._id).execute();
    expect(left).toHaveLength(0);

    expect(await countRevisions(kept._id)).toBe(1);
    const gone = await send('DELETE', `/users/${writer.id}`, writer.token, { currentPassword: writer.password });
    expect(gone.statusCode).toBe(200);
    expect(await countRevisions(kept._id)).toBe(0);
    const autosaves = await t.database.db.selectFrom('blog_autosaves').select('blog_id').where('author_id', '=', writer.id).execute();
    expect(autosaves).toHaveLength(0);
  });
});
