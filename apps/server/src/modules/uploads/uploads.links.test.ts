import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createUser, type TestApp, type TestUser } from '../../../test/helpers';
import { pngImage } from '../../../test/images';
import { multipartBody } from '../../../test/multipart';
import { newId, nowIso } from '../../db/ids';

/** The calls the blogs module makes to keep uploads and blogs in step (no blog routes involved). */
let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  user = await createUser(t);
});
afterAll(async () => t.close());

function upload(content: Buffer, token: string) {
  const { payload, headers } = multipartBody({}, [{ field: 'image', filename: 'a.png', content, contentType: 'image/png' }]);
  return t.app.inject({ method: 'POST', url: '/api/v1/uploads/image', payload, headers: { ...headers, ...bearer(token) } });
}
const fileOf = (url: string) => path.join(t.config.dataDir, url);

describe('linking uploads to blogs (used by the blogs module)', () => {
  const insertBlog = async (ownerId: string) => {
    const id = newId();
    const now = nowIso();
    await t.database.db
      .insertInto('blogs')
      .values({
        ...{ id, blog_id: `b-${id}`, creator_id: ownerId, title: 'T', description: 'D', image: null, content: '{}', search_text: '' },
        ...{ tags: '[]', block_count: 0, draft: 1, like_count: 0, comment_count: 0, save_count: 0, created_at: now, updated_at: now },
      })
      .execute();
    return id;
  };
  const stored = async (as: TestUser = user) =>
    (await upload(await pngImage(40, 30), as.token)).json().file as { url: string; imageId: string };
  const blogOf = async (imageId: string) =>
    (await t.database.db.selectFrom('uploads').select('blog_id').where('id', '=', imageId).executeTakeFirst())?.blog_id;

  it('attaches own uploads to every post using them, releases unreferenced ones and deletes their files after commit', async () => {
    const { uploads } = t.app.services;
    const other = await createUser(t);
    const [a, b, c, foreign] = [await stored(), await stored(), await stored(), await stored(other)];
    const blog1 = await insertBlog(user.id);
    const blog2 = await insertBlog(user.id);

    const n = await t.database.db
      .transaction()
      .execute((trx) => uploads.attachToBlog(blog1, user.id, [a.url, b.url, foreign.url, 'https://example.com/x.png'], trx));
    expect(n).toBe(2);
    expect([await blogOf(a.imageId), await blogOf(b.imageId), await blogOf(foreign.imageId)]).toEqual([blog1, blog1, null]);
    expect(await uploads.attachToBlog(blog2, user.id, [a.url])).toBe(1); // a second post using the same file
    expect(await blogOf(a.imageId)).toBe(blog1); // the first one stays its blog_id

    // A rolled-back save links nothing.
    await expect(
      t.database.db.transaction().execute(async (trx) => {
        await uploads.attachToBlog(blog1, user.id, [c.url], trx);
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await blogOf(c.imageId)).toBeNull();

    const keys = await t.database.db.transaction().execute((trx) => uploads.releasedByBlog(blog1, [a.url], trx));
    expect(keys).toEqual([b.url.replace('/uploads/', '')]);
    expect(await blogOf(b.imageId)).toBeUndefined();
    expect(existsSync(fileOf(b.url))).toBe(true); // files go only after commit
    await uploads.deleteFiles([...keys, 'inline/2000/01/missing.webp']);
    expect(existsSync(fileOf(b.url))).toBe(false);

    // Let go by blog1, a stays for blog2, which uses it too.
    expect(await t.database.db.transaction().execute((trx) => uploads.releasedByBlog(blog1, [], trx))).toEqual([]);
    expect(await blogOf(a.imageId)).toBe(blog2);

    // A failed save discards what it uploaded, but never an upload a blog already uses.
    await uploads.discard([{ id: a.imageId }, { id: c.imageId }]);
    expect([await blogOf(a.imageId), await blogOf(c.imageId)]).toEqual([blog2, undefined]);
    expect([existsSync(fileOf(a.url)), existsSync(fileOf(c.url))]).toEqual([true, false]);

    await t.database.db.deleteFrom('blogs').where('id', '=', blog2).execute();
    expect(await blogOf(a.imageId)).toBeUndefined(); // the row cascades with the blog
  });

  it('recognises only URLs of its own storage', () => {
    const { uploads } = t.app.services;
    expect(uploads.isOwnUploadUrl('/uploads/inline/2025/01/0190-ab.webp')).toBe(true);
    for (const url of [
      '/uploads/../jwt-secret',
      '/uploads/inline/a.webp?x=1',
      'https://evil.example/uploads/inline/a.webp',
      '/uploadsx/a.webp',
      '',
    ]) {
      expect(uploads.isOwnUploadUrl(url)).toBe(false);
    }
  });
});
