import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../../test/blogs';
import { bearer, createTestApp, createUser, type TestApp, type TestUser } from '../../../test/helpers';
import { pngImage } from '../../../test/images';
import { multipartBody } from '../../../test/multipart';
import * as uploadUses from '../../db/migrations/0030_upload_uses';

/** One image shown by several posts, or by a post and the profile: its file goes with its last use only. */
let t: TestApp;
let author: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  author = await createUser(t);
});
afterAll(async () => t.close());

const fileOf = (url: string) => path.join(t.config.dataDir, url.replace(/^\//, ''));
const served = async (url: string) => (await t.app.inject({ url })).statusCode;

async function uploadImage(color: string): Promise<string> {
  const { payload, headers } = multipartBody({}, [
    { field: 'image', filename: 'a.png', content: await pngImage(60, 40, color), contentType: 'image/png' },
  ]);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/uploads/image',
    payload,
    headers: { ...headers, ...bearer(author.token) },
  });
  expect(res.statusCode).toBe(200);
  return res.json().file.url;
}

const showing = (...urls: string[]) => ({
  content: {
    blocks: [
      { type: 'paragraph', data: { text: 'Pictures' } },
      ...urls.map((url) => ({ type: 'image', data: { file: { url }, caption: '' } })),
    ],
  },
});
const post = (...urls: string[]) => createBlog(t, author, showing(...urls));
const edit = (blogId: string, ...urls: string[]) =>
  t.app.inject({ method: 'PATCH', url: `/api/v1/blogs/${blogId}`, headers: bearer(author.token), payload: showing(...urls) });
const remove = (blogId: string) => t.app.inject({ method: 'DELETE', url: `/api/v1/blogs/${blogId}`, headers: bearer(author.token) });
const uploadRow = (url: string) => t.database.db.selectFrom('uploads').select(['id', 'blog_id']).where('url', '=', url).executeTakeFirst();

describe('an upload used by several posts', () => {
  it('keeps its file until the last post showing it lets it go', async () => {
    const url = await uploadImage('#114477');
    const a = await post(url);
    const b = await post(url);
    expect((await remove(a.blogId)).statusCode).toBe(200);
    expect(existsSync(fileOf(url))).toBe(true);
    expect(await served(url)).toBe(200);
    expect((await uploadRow(url))?.blog_id).toBe(b._id);

    const c = await post(url);
    expect((await edit(b.blogId)).statusCode).toBe(200); // b shows it no more (its history does); c does
    expect((await remove(b.blogId)).statusCode).toBe(200);
    expect(existsSync(fileOf(url))).toBe(true);
    expect((await uploadRow(url))?.blog_id).toBe(c._id);
    expect((await remove(c.blogId)).statusCode).toBe(200);
    expect(existsSync(fileOf(url))).toBe(false);
    expect(await uploadRow(url)).toBeUndefined();
  });

  it('keeps a profile picture that a deleted post showed, and drops a replaced one with its last post', async () => {
    const { payload, headers } = multipartBody({}, [
      { field: 'profilePic', filename: 'me.png', content: await pngImage(80, 80), contentType: 'image/png' },
    ]);
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/users/${author.id}`,
      headers: { ...headers, ...bearer(author.token) },
      payload,
    });
    expect(res.statusCode).toBe(200);
    const avatar = res.json().user.profilePic as string;
    const first = await post(avatar);
    expect((await remove(first.blogId)).statusCode).toBe(200);
    expect(existsSync(fileOf(avatar))).toBe(true);
    expect((await uploadRow(avatar))?.blog_id).toBeNull();

    const second = await post(avatar);
    const replaced = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/users/${author.id}`,
      headers: bearer(author.token),
      payload: { profilePic: '' },
    });
    expect(replaced.statusCode).toBe(200);
    expect(existsSync(fileOf(avatar))).toBe(true); // the post still shows it
    expect((await remove(second.blogId)).statusCode).toBe(200);
    expect(existsSync(fileOf(avatar))).toBe(false);
  });

  it('lets two posts that share an image be deleted at once without losing or leaving its row', async () => {
    for (let round = 0; round < 6; round++) {
      const url = await uploadImage('#22aa66');
      const [a, b] = [await post(url), await post(url)];
      const answers = await Promise.all([remove(a.blogId), remove(b.blogId)]);
      expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
      expect(await uploadRow(url)).toBeUndefined();
      expect(existsSync(fileOf(url))).toBe(false);
    }
  });

  it('learns from the migration which posts already showed an upload', async () => {
    const url = await uploadImage('#aa2266');
    const a = await post(url);
    const b = await createBlog(t, author, { ...showing(), image: url }); // as its featured image
    const c = await post(url); // in a block, after a (the upload's blog_id)
    const db = t.database.db;
    await uploadUses.down(db);
    await uploadUses.up(db);
    const uses = await db
      .selectFrom('upload_uses')
      .innerJoin('uploads', 'uploads.id', 'upload_uses.upload_id')
      .select('upload_uses.blog_id')
      .where('uploads.url', '=', url)
      .execute();
    expect(uses.map((u) => u.blog_id).sort()).toEqual([a._id, b._id, c._id].sort());
    expect((await remove(a.blogId)).statusCode).toBe(200);
    expect(await served(url)).toBe(200);
  });
});

describe('an upload named only by a pending autosave', () => {
  it('is not taken by the cleanup of unused uploads, as a featured image or in a block', async () => {
    const [featured, inBlock] = [await uploadImage('#663399'), await uploadImage('#336699')];
    const draft = await post();
    const autosave = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/blogs/${draft.blogId}/autosave`,
      headers: bearer(author.token),
      payload: { title: 'T', description: 'D', tags: [], image: featured, force: true, ...showing(inBlock) },
    });
    expect(autosave.statusCode).toBe(200);
    const dayAgo = new Date(Date.now() - 25 * 3600_000).toISOString();
    await t.database.db.updateTable('uploads').set({ created_at: dayAgo }).where('url', 'in', [featured, inBlock]).execute();
    const outcome = await t.app.services.scheduler.runNow('unattached-uploads');
    expect(outcome).toMatchObject({ ran: true, ok: true });
    for (const url of [featured, inBlock]) {
      expect((await uploadRow(url))?.blog_id).toBe(draft._id);
      expect(await served(url)).toBe(200);
    }
  });
});
