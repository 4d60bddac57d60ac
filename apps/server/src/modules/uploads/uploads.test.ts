import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createUser, type TestApp, type TestUser } from '../../../test/helpers';
import { jpegWithGps, noisePng, pngImage } from '../../../test/images';
import { multipartBody } from '../../../test/multipart';

let t: TestApp;
let small: TestApp;
let user: TestUser;
let smallUser: TestUser;
beforeAll(async () => {
  [t, small] = await Promise.all([createTestApp(), createTestApp({ uploadMaxBytes: 50_000 })]);
  [user, smallUser] = await Promise.all([createUser(t), createUser(small)]);
});
afterAll(async () => Promise.all([t.close(), small.close()]));

interface UploadOpts {
  on?: TestApp;
  token?: string | null;
  query?: string;
  field?: string;
  filename?: string;
  extraFiles?: number;
}
function upload(content: Buffer | string, o: UploadOpts = {}) {
  const on = o.on ?? t;
  const file = { field: o.field ?? 'image', filename: o.filename ?? 'photo.png', content, contentType: 'image/png' };
  const { payload, headers } = multipartBody({ caption: 'extra editor data' }, [file, ...Array(o.extraFiles ?? 0).fill(file)]);
  const token = o.token === undefined ? (on === small ? smallUser : user).token : o.token;
  const auth = token ? bearer(token) : {};
  return on.app.inject({ method: 'POST', url: `/api/v1/uploads/image${o.query ?? ''}`, payload, headers: { ...headers, ...auth } });
}

const uploadRows = async (on: TestApp = t) =>
  Number(
    (
      await on.database.db
        .selectFrom('uploads')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const storedFiles = (on: TestApp = t) => {
  const root = path.join(on.config.dataDir, 'uploads');
  return readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
};
const fileOf = (url: string, on: TestApp = t) => path.join(on.config.dataDir, url);

describe('POST /api/v1/uploads/image', () => {
  it('stores a PNG as WebP, records it and serves it with immutable caching', async () => {
    const res = await upload(await pngImage(2000, 1000));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      success: 1,
      file: {
        url: expect.stringMatching(/^\/uploads\/inline\/\d{4}\/\d{2}\/[0-9a-f-]{36}-[0-9a-f]{16}\.webp$/),
        imageId: expect.any(String),
        width: 1400,
        height: 700,
      },
    });
    const row = await t.database.db.selectFrom('uploads').selectAll().where('id', '=', body.file.imageId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ owner_id: user.id, url: body.file.url, kind: 'inline', blog_id: null, width: 1400, height: 700 });
    expect(row.bytes).toBe(readFileSync(fileOf(body.file.url)).length);

    const served = await t.app.inject({ method: 'GET', url: body.file.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect((await sharp(served.rawPayload).metadata()).format).toBe('webp');
  });

  it('applies the EXIF orientation, then strips EXIF, GPS and ICC data from a JPEG', async () => {
    const jpeg = await jpegWithGps(300, 200);
    const before = await sharp(jpeg).metadata();
    expect(before.exif?.toString('latin1')).toContain('TestCam');
    const res = await upload(jpeg, { filename: 'holiday.jpg', query: '?kind=featured' });
    expect(res.statusCode).toBe(200);
    expect(res.json().file).toMatchObject({ width: 200, height: 300 }); // shown portrait, as the camera meant
    const stored = readFileSync(fileOf(res.json().file.url));
    const meta = await sharp(stored).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 200, height: 300 });
    expect(meta.exif).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(stored.toString('latin1')).not.toMatch(/TestCam|GPS|private/);
  });

  it('sizes featured images to 1600 wide and avatars to a 400x400 square', async () => {
    const big = await pngImage(3000, 2000);
    const featured = await upload(big, { query: '?kind=featured' });
    expect(featured.json().file).toMatchObject({ width: 1600, height: 1067 });
    expect(featured.json().file.url).toMatch(/^\/uploads\/featured\//);
    const avatar = await upload(big, { query: '?kind=avatar' });
    expect(avatar.json().file).toMatchObject({ width: 400, height: 400 });
    const tiny = await upload(await pngImage(120, 90), { query: '?kind=avatar' });
    expect(tiny.json().file).toMatchObject({ width: 90, height: 90 }); // never upscaled
  });

  it('reads the file from the field named by ?field= and says when it is missing', async () => {
    const png = await pngImage(50, 50);
    expect((await upload(png, { field: 'file', query: '?field=file' })).statusCode).toBe(200);
    const missing = await upload(png, { field: 'file' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ success: false, message: expect.stringMatching(/choose an image/) });
  });

  it('refuses a text file named .png with 400 and keeps no row and no file', async () => {
    const rows = await uploadRows();
    const files = storedFiles().length;
    const res = await upload('just some text, honestly', { filename: 'fake.png' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, message: 'The file is not a valid image' });
    const truncated = await upload((await pngImage(400, 400, '#123456')).subarray(0, 200));
    expect(truncated.statusCode).toBe(400);
    expect(truncated.json().message).toBe('The file is not a valid image');
    expect(await uploadRows()).toBe(rows);
    expect(storedFiles()).toHaveLength(files);
  });

  it('refuses an image over 40 megapixels with a clear 400', async () => {
    const huge = await pngImage(8000, 6000, '#ffffff'); // small file, 48 MP
    const res = await upload(huge);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/40 megapixels/);
  });

  it('refuses a file over the limit with 413 and stores nothing', async () => {
    const rows = await uploadRows(small);
    const res = await upload(await noisePng(200, 200), { on: small });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ success: false, message: 'Image must be at most 49KB' });
    expect(await uploadRows(small)).toBe(rows);
    expect(storedFiles(small)).toHaveLength(0);
    expect((await upload(await pngImage(100, 100), { on: small })).statusCode).toBe(200);
  });

  it('refuses a real image over 5MB with 413', async () => {
    const png = await noisePng(1500, 1300); // ~5.9 MB
    expect(png.length).toBeGreaterThan(5 * 1024 * 1024);
    const res = await upload(png);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ success: false, message: 'Image must be at most 5MB' });
  });

  it('refuses more than one file, a non-multipart body and a missing token', async () => {
    const png = await pngImage(20, 20);
    const two = await upload(png, { extraFiles: 1 });
    expect(two.statusCode).toBe(413);
    expect(two.json().message).toMatch(/one file/);
    const json = await t.app.inject({ method: 'POST', url: '/api/v1/uploads/image', payload: { image: 'x' }, headers: bearer(user.token) });
    expect(json.statusCode).toBe(400);
    expect(json.json().message).toMatch(/multipart/);
    const anonymous = await upload(png, { token: null });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().success).toBe(false);
    expect((await upload(png, { query: '?kind=banner' })).statusCode).toBe(400);
  });

  it('answers 400, not 500, for a malformed multipart body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/uploads/image',
      payload: '--x\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n\r\nabc',
      headers: { 'content-type': 'multipart/form-data; boundary=x', ...bearer(user.token) },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().success).toBe(false);
  });
});
