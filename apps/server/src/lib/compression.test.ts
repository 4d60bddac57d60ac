import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { registerCompression } from './compression';

/** Compression as clients see it: small bodies compressed at once, large ones and streams by @fastify/compress. */
describe('response compression', () => {
  const app = Fastify();
  const body = (size: number) => JSON.stringify({ text: 'inkwell '.repeat(Math.ceil(size / 8)).slice(0, size) });

  beforeAll(async () => {
    await registerCompression(app);
    app.get('/json/:size', async (request, reply) =>
      reply.type('application/json').send(body(Number((request.params as { size: string }).size))),
    );
    app.get('/vary', async (_request, reply) => reply.header('vary', 'Authorization').type('application/json').send(body(4000)));
    app.get('/png', async (_request, reply) => reply.type('image/png').send(Buffer.alloc(4000, 7)));
    await app.ready();
  });
  afterAll(() => app.close());

  const get = (url: string, acceptEncoding?: string) =>
    app.inject({ method: 'GET', url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

  test('a page of JSON is sent in brotli, or gzip when only that is accepted, and decodes to the same text', async () => {
    const br = await get('/json/4000', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(body(4000));
    const gzip = await get('/json/4000', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(body(4000));
  });

  test('small bodies, refused encodings, no Accept-Encoding and images are sent as they are', async () => {
    expect((await get('/json/200', 'br')).headers['content-encoding']).toBeUndefined();
    expect((await get('/json/4000')).body).toBe(body(4000));
    const refused = await get('/json/4000', 'br;q=0, gzip;q=0');
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body).toBe(body(4000));
    const png = await get('/png', 'br');
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.rawPayload.length).toBe(4000);
  });

  test('a Vary header set by the route keeps its value and gains accept-encoding once', async () => {
    const res = await get('/vary', 'br');
    expect(res.headers['content-encoding']).toBe('br');
    expect(
      String(res.headers.vary)
        .split(',')
        .map((v) => v.trim().toLowerCase()),
    ).toEqual(['authorization', 'accept-encoding']);
  });

  test('bodies over the in-place limit are still compressed (by the stream path)', async () => {
    const res = await get('/json/300000', 'br');
    expect(res.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(body(300000));
  });
});
