import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ENGINE, type TestApp } from '../test/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('the HTTP shell', () => {
  it('reports database reachability on /api/v1/health', async () => {
    const res = await t.app.inject({ url: '/api/v1/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, database: { engine: ENGINE, reachable: true } });
  });

  it('sends a strict Content-Security-Policy and security headers', async () => {
    const res = await t.app.inject({ url: '/api/v1/health' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('answers an address it cannot read with its own 400, security headers and request id', async () => {
    const longId = 'x'.repeat(200);
    for (const url of ['/api/v1/blogs/%E0%A4%A', `/api/v1/blogs/${longId}/comments`]) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toEqual({ success: false, message: 'The address is not valid: bad percent-encoding or a part too long' });
      expect(String(res.headers['content-security-policy']), url).toContain("script-src 'self'");
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['x-request-id'], url).toBeTruthy();
    }
  });

  it('answers unknown API routes with a JSON 404', async () => {
    const res = await t.app.inject({ url: '/api/v1/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, message: 'Route GET /api/v1/nope not found' });
  });

  it('turns malformed JSON into a 400 with a message', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/signin',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().success).toBe(false);
    expect(res.json().message).toBeTruthy();
  });

  it('refuses bodies over the limit with 413', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/signin',
      payload: { email: 'a@b.co', password: 'x'.repeat(2 * 1024 * 1024) },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ success: false, message: 'Request body is too large' });
  });

  it('does not allow cross-origin calls unless configured', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/signin',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('conditional GETs', () => {
  it('answers a matching If-None-Match with 304 and marks signed-in reads private', async () => {
    const first = await t.app.inject({ url: '/api/v1/blogs?limit=4&page=1' });
    expect(first.statusCode).toBe(200);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/"/);
    expect(first.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    const again = await t.app.inject({ url: '/api/v1/blogs?limit=4&page=1', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const signedIn = await t.app.inject({ url: '/api/v1/blogs?limit=4&page=1', headers: { authorization: 'Bearer x' } });
    expect(signedIn.headers['cache-control']).toBe('private, no-cache');
  });
});
