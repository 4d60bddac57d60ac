import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows } from '../../../test/blogs';
import { bearer, createTestApp, createUser, type TestApp, type TestUser } from '../../../test/helpers';
import { jpegWithGps, noisePng, pngImage } from '../../../test/images';
import { multipartBody } from '../../../test/multipart';

let t: TestApp;
let author: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  author = await createUser(t);
});
afterAll(async () => t.close());

const fileOf = (url: string) => path.join(t.config.dataDir, url.replace(/^\//, ''));

async function send(
  method: 'POST' | 'PATCH',
  url: string,
  fields: Record<string, unknown>,
  files: Parameters<typeof multipartBody>[1] = [],
) {
  const { payload, headers } = multipartBody(fields, files);
  return t.app.inject({ method, url, payload, headers: { ...headers, ...bearer(author.token) } });
}

const blocksWithPlaceholders = {
  blocks: [
    { type: 'paragraph', data: { text: 'Pictures follow' } },
    { type: 'image', data: { file: { url: 'blob:http://localhost/123' }, caption: 'first' } },
    { type: 'image', data: { file: { url: 'blob:http://localhost/456' }, caption: 'second' } },
  ],
};

describe('blogs with images (multipart, as SPEC.md 7 sends them)', () => {
  it('stores the featured image and the files of new image blocks, re-encoded without metadata', async () => {
    const res = await send(
      'POST',
      '/api/v1/blogs',
      { title: 'Photo essay', description: 'd', tags: ['photos'], draft: 'false', content: blocksWithPlaceholders },
      [
        { field: 'image', filename: 'cover.jpg', content: await jpegWithGps(), contentType: 'image/jpeg' },
        { field: 'images', filename: 'a.png', content: await pngImage(300, 200), contentType: 'image/png' },
        { field: 'images', filename: 'b.png', content: await pngImage(200, 100, '#ff0000'), contentType: 'image/png' },
      ],
    );
    expect(res.statusCode).toBe(201);
    const blog = (await t.app.inject({ url: `/api/v1/blogs/${res.json().blog.blogId}` })).json().blog;
    expect(blog.image).toMatch(/^\/uploads\/featured\/.+\.webp$/);
    const urls = blog.content.blocks
      .filter((b: { type: string }) => b.type === 'image')
      .map((b: { data: { file: { url: string } } }) => b.data.file.url);
    expect(urls).toHaveLength(2);
    for (const url of [blog.image, ...urls]) {
      expect(url).toMatch(/^\/uploads\/.+\.webp$/);
      expect(existsSync(fileOf(url))).toBe(true);
      const served = await t.app.inject({ url });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/webp');
    }
    expect(await countRows(t, 'uploads', ['blog_id', blog._id])).toBe(3);
  });

  it('refuses a non-image renamed .png and leaves no blog and no file behind', async () => {
    const blogs = await countRows(t, 'blogs');
    const uploads = await countRows(t, 'uploads');
    const res = await send('POST', '/api/v1/blogs', { description: 'd', title: 'Fake', content: blocksWithPlaceholders }, [
      { field: 'images', filename: 'ok.png', content: await pngImage(), contentType: 'image/png' },
      { field: 'images', filename: 'evil.png', content: 'MZ this is not an image', contentType: 'image/png' },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('The file is not a valid image');
    expect(await countRows(t, 'blogs')).toBe(blogs);
    expect(await countRows(t, 'uploads')).toBe(uploads);
  });

  it('refuses bad content before it decodes or stores any of its images', async () => {
    const uploads = t.app.services.uploads;
    const storeImage = uploads.storeImage.bind(uploads);
    let stored = 0;
    // Counted on their way through; the real storage still does the work.
    uploads.storeImage = (...args: Parameters<typeof storeImage>) => {
      stored++;
      return storeImage(...args);
    };
    try {
      const bad = { blocks: [...blocksWithPlaceholders.blocks, { type: 'marquee', data: {} }] };
      const res = await send('POST', '/api/v1/blogs', { description: 'd', title: 'Bad content', content: bad }, [
        { field: 'images', filename: 'a.png', content: await pngImage(), contentType: 'image/png' },
        { field: 'images', filename: 'b.png', content: await pngImage(), contentType: 'image/png' },
      ]);
      expect([res.statusCode, res.json().message]).toEqual([400, "content: unknown block type 'marquee'"]);
      expect(stored).toBe(0);
    } finally {
      uploads.storeImage = storeImage;
    }
  });

  it('refuses a featured image over 5 MB with 413', async () => {
    const big = await noisePng(1400, 1400);
    expect(big.length).toBeGreaterThan(5 * 1024 * 1024);
    const res = await send('POST', '/api/v1/blogs', { description: 'd', title: 'Huge' }, [
      { field: 'image', filename: 'big.png', content: big, contentType: 'image/png' },
    ]);
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('Image must be at most 5MB');
  });

  it('deletes the files an update no longer uses, and all of them with the blog', async () => {
    const created = await send('POST', '/api/v1/blogs', { description: 'd', title: 'Will change', content: blocksWithPlaceholders }, [
      { field: 'image', filename: 'cover.png', content: await pngImage(), contentType: 'image/png' },
      { field: 'images', filename: 'a.png', content: await pngImage(), contentType: 'image/png' },
      { field: 'images', filename: 'b.png', content: await pngImage(), contentType: 'image/png' },
    ]);
    const { blogId } = created.json().blog;
    const before = (await t.app.inject({ url: `/api/v1/blogs/${blogId}` })).json().blog;
    const [first, second] = before.content.blocks.filter((b: { type: string }) => b.type === 'image');
    // Keep the first inline image, drop the second and remove the featured image.
    const updated = await send('PATCH', `/api/v1/blogs/${blogId}`, {
      title: 'Changed',
      description: 'd',
      image: '',
      content: { blocks: [first] },
      existingImages: [{ url: first.data.file.url }],
    });
    expect(updated.statusCode).toBe(200);
    expect(existsSync(fileOf(first.data.file.url))).toBe(true);
    // The previous version is kept in the revision history (issue 16), and with it the files it
    // shows, so restoring it brings its images back; they go when the revision or the blog goes.
    expect(existsSync(fileOf(second.data.file.url))).toBe(true);
    expect(existsSync(fileOf(before.image))).toBe(true);
    expect((await t.app.inject({ url: `/api/v1/blogs/${blogId}` })).json().blog.image).toBeNull();

    const del = await t.app.inject({ method: 'DELETE', url: `/api/v1/blogs/${blogId}`, headers: bearer(author.token) });
    expect(del.statusCode).toBe(200);
    for (const url of [first.data.file.url, second.data.file.url, before.image]) expect(existsSync(fileOf(url))).toBe(false);
    expect(await countRows(t, 'uploads', ['blog_id', before._id])).toBe(0);
  });

  it('links images uploaded beforehand through the editor uploader', async () => {
    const { payload, headers } = multipartBody({}, [
      { field: 'image', filename: 'x.png', content: await pngImage(), contentType: 'image/png' },
    ]);
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/v1/uploads/image',
      payload,
      headers: { ...headers, ...bearer(author.token) },
    });
    expect(upload.json()).toMatchObject({ success: 1, file: { url: expect.stringMatching(/^\/uploads\//) } });
    const url = upload.json().file.url;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/blogs',
      headers: bearer(author.token),
      payload: {
        description: 'd',
        title: 'Uploaded first',
        content: { blocks: [{ type: 'image', data: { file: { url }, caption: 'c' } }] },
      },
    });
    expect(res.statusCode).toBe(201);
    expect(await countRows(t, 'uploads', ['blog_id', res.json().blog._id])).toBe(1);
  });
});
