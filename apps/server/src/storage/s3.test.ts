import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../test/blogs';
import { bearer, createTestApp, createUser, ENGINE, type TestApp, type TestUser } from '../../test/helpers';
import { pngImage } from '../../test/images';
import { multipartBody } from '../../test/multipart';
import { startS3Server, type TestS3Server } from '../../test/s3-server';
import { S3Storage, type S3StorageConfig } from './s3';

let s3: TestS3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => s3.close());

async function uploadImage(t: TestApp, user: TestUser, kind = 'inline') {
  const file = { field: 'image', filename: 'photo.png', content: await pngImage(320, 200), contentType: 'image/png' };
  const { payload, headers } = multipartBody({}, [file]);
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/uploads/image?kind=${kind}`,
    payload,
    headers: { ...headers, ...bearer(user.token) },
  });
  expect(res.statusCode).toBe(200);
  return res.json().file as { url: string; imageId: string };
}

const storageOf = (t: TestApp) => t.app.services.storage;
const keyOf = (url: string) => url.replace(/^.*?\/uploads\//, '').replace(/^https?:\/\/[^/]+\//, '');
const localFiles = (t: TestApp) => {
  const root = path.join(t.config.dataDir, 'uploads');
  return existsSync(root) ? readdirSync(root, { recursive: true }).length : 0;
};

describe('S3Storage against an S3-protocol server', () => {
  it('puts, gets and deletes objects (a missing object is null, deleting it twice is fine)', async () => {
    const storage = new S3Storage(s3.storage() as S3StorageConfig);
    const key = 'inline/2026/11/roundtrip-0123456789abcdef.webp';
    await storage.put(key, Buffer.from('webp bytes'), 'image/webp');
    const object = await storage.get(key);
    expect(object?.contentType).toBe('image/webp');
    expect(object?.contentLength).toBe(10);
    expect(Buffer.from(await object!.body.toArray().then((c) => Buffer.concat(c))).toString()).toBe('webp bytes');
    await storage.delete(key);
    await storage.delete(key);
    expect(await storage.get(key)).toBeNull();
    await expect(storage.check()).resolves.toBeUndefined();
    storage.close();
  });

  it('refuses keys outside the pattern before any request', async () => {
    const storage = new S3Storage(s3.storage() as S3StorageConfig);
    await expect(storage.put('../escape.webp', Buffer.from('x'), 'image/webp')).rejects.toThrow('Invalid storage key');
    expect(() => storage.publicUrl('a/../../b.webp')).toThrow('Invalid storage key');
    storage.close();
  });

  it('fails its readiness check when the bucket does not exist (a misspelt S3_BUCKET)', async () => {
    const storage = new S3Storage({ ...(s3.storage() as S3StorageConfig), bucket: 'inkwell-media-misspelt' });
    await expect(storage.check()).rejects.toMatchObject({ name: 'NoSuchBucket' });
    storage.close();
  });

  it('fails its readiness check with a wrong secret (the server verifies signatures)', async () => {
    const storage = new S3Storage(s3.storage({ secretAccessKey: 'not-the-secret' }) as S3StorageConfig);
    await expect(storage.check()).rejects.toMatchObject({ $metadata: { httpStatusCode: 403 } });
    await expect(storage.put('inline/x.webp', Buffer.from('x'), 'image/webp')).rejects.toMatchObject({ name: 'SignatureDoesNotMatch' });
    storage.close();
  });
});

describe('uploads on S3, served through the app', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ storage: s3.storage() });
    user = await createUser(t);
  });
  afterAll(async () => t.close());

  it('uploads to the bucket (not the data folder) and serves the object at /uploads/ with immutable caching', async () => {
    const { url } = await uploadImage(t, user);
    expect(url).toMatch(/^\/uploads\/inline\/\d{4}\/\d{2}\/.+\.webp$/);
    expect(localFiles(t)).toBe(0);
    const inBucket = await storageOf(t).get(keyOf(url));
    const bucketBytes = Buffer.concat(await inBucket!.body.toArray());

    const served = await t.app.inject({ url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-security-policy']).toContain('sandbox');
    expect(served.rawPayload.equals(bucketBytes)).toBe(true);
    const again = await t.app.inject({ url, headers: { 'if-none-match': served.headers.etag as string } });
    expect(again.statusCode).toBe(304);
  });

  it('answers 404 for a missing object or a key outside the pattern', async () => {
    expect((await t.app.inject({ url: '/uploads/inline/2026/01/missing-0000.webp' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/uploads/..%2F..%2Fetc%2Fpasswd' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/uploads/Inline/UPPER.webp' })).statusCode).toBe(404);
  });

  it('replaces an avatar: the old object is deleted from the bucket, the new one is served', async () => {
    const upload = async (color: string) => {
      const { payload, headers } = multipartBody({}, [
        { field: 'profilePic', filename: 'me.png', content: await pngImage(90, 90, color), contentType: 'image/png' },
      ]);
      const res = await t.app.inject({
        method: 'PATCH',
        url: `/api/v1/users/${user.id}`,
        headers: { ...headers, ...bearer(user.token) },
        payload,
      });
      expect(res.statusCode).toBe(200);
      return res.json().user.profilePic as string;
    };
    const first = await upload('#00aa00');
    expect((await t.app.inject({ url: first })).statusCode).toBe(200);
    const second = await upload('#aa0000');
    expect(second).not.toBe(first);
    expect(await storageOf(t).get(keyOf(first))).toBeNull();
    expect((await t.app.inject({ url: first })).statusCode).toBe(404);
    expect((await t.app.inject({ url: second })).statusCode).toBe(200);
  });

  it("deletes a blog's images from the bucket with the blog", async () => {
    const { url } = await uploadImage(t, user);
    const blog = await createBlog(t, user, {
      content: { blocks: [{ type: 'image', data: { file: { url }, caption: 'on S3' } }] },
    });
    expect((await t.app.inject({ url })).statusCode).toBe(200);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/v1/blogs/${blog.blogId}`, headers: bearer(user.token) });
    expect(del.statusCode).toBe(200);
    expect(await storageOf(t).get(keyOf(url))).toBeNull();
    expect((await t.app.inject({ url })).statusCode).toBe(404);
  });

  it('is ready while the bucket answers', async () => {
    const res = await t.app.inject({ url: '/api/v1/health/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json().checks.storage).toMatchObject({ kind: 's3', reachable: true });
  });
});

describe('uploads on S3 with a public URL', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ storage: s3.storage({ publicUrl: `${s3.endpoint}/${s3.bucket}` }) });
    user = await createUser(t);
  });
  afterAll(async () => t.close());

  it('hands out the public URL, which serves the object; the app does not serve /uploads/', async () => {
    const { url } = await uploadImage(t, user, 'featured');
    expect(url.startsWith(`${s3.endpoint}/${s3.bucket}/featured/`)).toBe(true);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const key = url.slice(`${s3.endpoint}/${s3.bucket}/`.length);
    expect((await t.app.inject({ url: `/uploads/${key}` })).statusCode).toBe(404);
    // Blogs accept their own uploads by that URL, and link them (so deleting the blog removes the file).
    const blog = await createBlog(t, user, { image: url, content: { blocks: [{ type: 'paragraph', data: { text: 'Cover on a CDN' } }] } });
    const row = await t.database.db.selectFrom('uploads').select('blog_id').where('url', '=', url).executeTakeFirstOrThrow();
    expect(row.blog_id).toBe(blog._id);
  });

  it('allows the plain-http bucket origin in the page CSP (local MinIO)', async () => {
    const res = await t.app.inject({ url: '/api/v1/health/live' });
    expect(res.headers['content-security-policy']).toMatch(new RegExp(`img-src [^;]*${s3.endpoint.replace(/[.:/]/g, '\\$&')}`));
  });
});

describe('readiness when the object store is down', () => {
  it('answers 503 naming storage, while liveness stays 200', async () => {
    const own = await startS3Server();
    const t = await createTestApp({ storage: own.storage() });
    try {
      expect((await t.app.inject({ url: '/api/v1/health/ready' })).statusCode).toBe(200);
      await own.close();
      const res = await t.app.inject({ url: '/api/v1/health/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ success: false, message: 'Unreachable: storage', checks: { storage: { reachable: false } } });
      expect((await t.app.inject({ url: '/api/v1/health/live' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('answers 503 for a bucket that does not exist and for a wrong secret, naming the failure', async () => {
    const working = s3.storage() as S3StorageConfig;
    const cases: [S3StorageConfig, string][] = [
      [{ ...working, bucket: 'inkwell-media-misspelt' }, 'NoSuchBucket'],
      [s3.storage({ secretAccessKey: 'not-the-secret' }) as S3StorageConfig, 'SignatureDoesNotMatch'],
    ];
    for (const [storage, error] of cases) {
      const t = await createTestApp({ storage });
      try {
        const res = await t.app.inject({ url: '/api/v1/health/ready' });
        expect(res.statusCode, res.body).toBe(503);
        expect(res.json().checks.storage, res.body).toMatchObject({ reachable: false, error });
      } finally {
        await t.close();
      }
    }
  });
});

const redisUrl = process.env.TEST_REDIS_URL;
const twoInstances = ENGINE === 'postgres' && !!redisUrl;
if (!twoInstances) {
  console.warn(
    ENGINE === 'sqlite'
      ? 'SKIPPED on SQLite: the two-instance S3 test runs on PostgreSQL + Redis (server-postgres project).'
      : 'SKIPPED: the two-instance S3 test needs TEST_REDIS_URL.',
  );
}

describe.skipIf(!twoInstances)('two instances on PostgreSQL + Redis + S3', () => {
  it('serves from one instance an image uploaded through the other (separate data folders)', async () => {
    const first = await createTestApp({ storage: s3.storage(), redisUrl });
    const otherDataDir = mkdtempSync(path.join(tmpdir(), 'inkwell-second-'));
    const second = await createTestApp({ storage: s3.storage(), redisUrl, dataDir: otherDataDir }, first);
    try {
      const user = await createUser(first);
      const { url } = await uploadImage(first, user);
      const blog = await createBlog(first, user, { content: { blocks: [{ type: 'image', data: { file: { url }, caption: 'shared' } }] } });

      const page = await second.app.inject({ url: `/api/v1/blogs/${blog.blogId}` });
      expect(page.json().blog.content.blocks[0].data.file.url).toBe(url);
      const served = await second.app.inject({ url });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/webp');
      const fromFirst = await first.app.inject({ url });
      expect(served.rawPayload.equals(fromFirst.rawPayload)).toBe(true);
      const ready = await second.app.inject({ url: '/api/v1/health/ready' });
      expect(ready.json().checks).toMatchObject({
        database: { reachable: true },
        redis: { reachable: true },
        storage: { reachable: true },
      });
    } finally {
      await second.close();
      await first.close();
      rmSync(otherDataDir, { recursive: true, force: true });
    }
  });
});
