import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createUser, type TestApp, type TestUser } from '../../../test/helpers';
import { noisePng, pngImage } from '../../../test/images';
import { fetchRemoteImage } from './url-fetch';

/** A stand-in for the internet, on 127.0.0.1: images, redirects, errors and a server that never answers. */
let server: http.Server;
let base: string;
let png: Buffer;
let bigPng: Buffer;
const hanging = new Set<http.ServerResponse>();

function serve(req: http.IncomingMessage, res: http.ServerResponse) {
  const url = new URL(req.url ?? '/', base);
  const hops = Number(url.searchParams.get('hops') ?? 0);
  switch (url.pathname) {
    case '/image.png':
      return res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length }).end(png);
    case '/text':
      return res.writeHead(200, { 'content-type': 'image/png' }).end('<html>not an image</html>');
    case '/big.png':
      return res.writeHead(200, { 'content-type': 'image/png', 'content-length': bigPng.length }).end(bigPng);
    case '/big-chunked.png': // no content-length: only the streaming cap can stop it
      res.writeHead(200, { 'content-type': 'image/png' });
      for (let i = 0; i < bigPng.length; i += 16_384) res.write(bigPng.subarray(i, i + 16_384));
      return res.end();
    case '/redirect':
      return res.writeHead(302, { location: hops > 1 ? `/redirect?hops=${hops - 1}` : '/image.png' }).end();
    case '/to-ftp':
      return res.writeHead(301, { location: 'ftp://example.com/a.png' }).end();
    case '/to-other-host':
      return res.writeHead(302, { location: `http://127.0.0.2:${url.port}/image.png` }).end();
    case '/hang':
      hanging.add(res);
      return;
    default:
      return res.writeHead(404).end('missing');
  }
}

let open: TestApp; // allowPrivateUrlFetch, 50 KB limit
let strict: TestApp; // production defaults
let openUser: TestUser;
let strictUser: TestUser;
beforeAll(async () => {
  [png, bigPng] = await Promise.all([pngImage(320, 200), noisePng(150, 150)]);
  server = http.createServer(serve).listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  [open, strict] = await Promise.all([createTestApp({ allowPrivateUrlFetch: true, uploadMaxBytes: 50_000 }), createTestApp()]);
  [openUser, strictUser] = await Promise.all([createUser(open), createUser(strict)]);
});
afterAll(async () => {
  for (const res of hanging) res.destroy();
  server.close();
  await Promise.all([open.close(), strict.close()]);
});

const byUrl = (on: TestApp, url: string, token: string | null = (on === open ? openUser : strictUser).token, kind = '') =>
  on.app.inject({ method: 'POST', url: `/api/v1/uploads/image-by-url${kind}`, payload: { url }, headers: token ? bearer(token) : {} });
const countRows = async (on: TestApp) =>
  Number(
    (
      await on.database.db
        .selectFrom('uploads')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('POST /api/v1/uploads/image-by-url', () => {
  it('refuses the server’s own network by default, however the address is written', async () => {
    const port = new URL(base).port;
    for (const url of [
      `${base}/image.png`,
      `http://localhost:${port}/image.png`,
      `http://[::ffff:127.0.0.1]:${port}/image.png`,
      'http://169.254.169.254/latest/meta-data',
      'http://0.0.0.0/',
    ]) {
      const res = await byUrl(strict, url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toEqual({ success: false, message: 'That address is not allowed' });
    }
    expect(await countRows(strict)).toBe(0);
  });

  it('refuses other schemes and malformed URLs, and needs a token', async () => {
    expect((await byUrl(strict, 'file:///etc/passwd')).json().message).toBe('That address is not allowed');
    expect((await byUrl(strict, 'gopher://example.com/')).statusCode).toBe(400);
    expect((await byUrl(strict, 'not a url')).statusCode).toBe(400);
    expect((await byUrl(strict, '')).statusCode).toBe(400);
    expect((await byUrl(strict, `${base}/image.png`, null)).statusCode).toBe(401);
  });

  it('fetches, converts and records an image when private fetches are allowed', async () => {
    const res = await byUrl(open, `${base}/image.png`, undefined, '?kind=featured');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: 1,
      file: { url: expect.stringMatching(/^\/uploads\/featured\/.+\.webp$/), imageId: expect.any(String), width: 320, height: 200 },
    });
    const row = await open.database.db
      .selectFrom('uploads')
      .selectAll()
      .where('id', '=', res.json().file.imageId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ owner_id: openUser.id, kind: 'featured' });
    const served = await open.app.inject({ url: res.json().file.url });
    expect(served.headers['content-type']).toBe('image/webp');
  });

  it('follows up to 3 redirects and refuses longer chains and non-http targets', async () => {
    expect((await byUrl(open, `${base}/redirect?hops=3`)).statusCode).toBe(200);
    const long = await byUrl(open, `${base}/redirect?hops=4`);
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toMatch(/^Could not fetch the image from that URL/);
    expect((await byUrl(open, `${base}/to-ftp`)).json()).toEqual({ success: false, message: 'That address is not allowed' });
  });

  it('refuses a non-image and reports a failing remote as 400', async () => {
    expect((await byUrl(open, `${base}/text`)).json()).toEqual({ success: false, message: 'The file is not a valid image' });
    const missing = await byUrl(open, `${base}/nothing-here`);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toMatch(/^Could not fetch the image from that URL/);
    expect((await byUrl(open, 'http://no-such-host.invalid/a.png')).statusCode).toBe(400);
  });

  it('stops an oversize download with 413, with or without a content-length', async () => {
    const rows = await countRows(open);
    for (const path of ['/big.png', '/big-chunked.png']) {
      const res = await byUrl(open, `${base}${path}`);
      expect(res.statusCode, path).toBe(413);
      expect(res.json().message).toBe('Image must be at most 49KB');
    }
    expect(await countRows(open)).toBe(rows);
  });
});

describe('fetchRemoteImage', () => {
  it('re-checks the address of every redirect target', async () => {
    const onlyFirst = { maxBytes: 1e6, isAllowedAddress: (ip: string) => ip === '127.0.0.1' };
    await expect(fetchRemoteImage(`${base}/image.png`, onlyFirst)).resolves.toEqual(png);
    await expect(fetchRemoteImage(`${base}/to-other-host`, onlyFirst)).rejects.toMatchObject({
      statusCode: 400,
      message: 'That address is not allowed',
    });
  });

  it('gives up on a remote that does not answer in time', async () => {
    const started = Date.now();
    await expect(fetchRemoteImage(`${base}/hang`, { maxBytes: 1e6, allowPrivate: true, timeoutMs: 300 })).rejects.toMatchObject({
      statusCode: 400,
      message: expect.stringMatching(/took too long/),
    });
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
