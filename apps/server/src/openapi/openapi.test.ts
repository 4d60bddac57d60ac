import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers';
import { API_PREFIX, DOCS_PATH, OPENAPI_PATH } from './openapi';

// Every route as Fastify registers it, seen by an onRoute hook added before any route.
const registered: { method: string; url: string }[] = [];
let t: TestApp;
let document: {
  openapi: string;
  paths: Record<string, Record<string, { security?: unknown[]; requestBody?: unknown; responses: Record<string, unknown> }>>;
};

beforeAll(async () => {
  t = await createTestApp({}, undefined, undefined, {
    onRoute: (route) => {
      for (const method of [route.method].flat()) registered.push({ method, url: route.url });
    },
  });
  const res = await t.app.inject({ url: OPENAPI_PATH });
  expect(res.statusCode).toBe(200);
  document = res.json();
});
afterAll(async () => t.close());

/** '/api/v1/blogs/:id' is '/api/v1/blogs/{id}' in OpenAPI. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

describe('GET /api/v1/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  // The rule: every route under /api/v1 is documented; HEAD routes (Fastify's automatic twins of
  // GET) and routes outside /api/v1 (web app, uploads, feeds, sitemaps, this reference) are not.
  it('documents every route registered under /api/v1', () => {
    const api = registered.filter((r) => r.url.startsWith(`${API_PREFIX}/`) && r.method !== 'HEAD');
    expect(api.length).toBeGreaterThan(30);
    const missing = api.filter((r) => !document.paths[openApiPath(r.url)]?.[r.method.toLowerCase()]);
    expect(missing).toEqual([]);
    const outside = Object.keys(document.paths).filter((path) => !path.startsWith(`${API_PREFIX}/`));
    expect(outside).toEqual([]);
  });

  it('shows bodies, bearer auth and error answers', () => {
    const create = document.paths['/api/v1/blogs']?.post;
    expect(create?.security).toEqual([{ bearerAuth: [] }]);
    expect(JSON.stringify(create?.requestBody)).toContain('"title"');
    expect(Object.keys(create?.responses ?? {})).toEqual(expect.arrayContaining(['201', '400', '401', 'default']));
    // The feed reads an optional viewer (a muter's feed leaves out the muted, issue 15).
    expect(document.paths['/api/v1/blogs']?.get?.security).toEqual([{ bearerAuth: [] }, {}]);
    expect(JSON.stringify(document.paths['/api/v1/change-password']?.patch?.requestBody)).toContain('"newPassword"');
    // Notifications are the recipient's own: each of the five needs the token (they showed none).
    const notifications = [
      document.paths['/api/v1/notifications']?.get,
      document.paths['/api/v1/notifications']?.delete,
      document.paths['/api/v1/notifications/mark-read']?.patch,
      document.paths['/api/v1/notifications/{id}/read']?.patch,
      document.paths['/api/v1/notifications/{id}']?.delete,
    ];
    for (const op of notifications) {
      expect(op?.security).toEqual([{ bearerAuth: [] }]);
      expect(Object.keys(op?.responses ?? {})).toContain('401');
    }
    // Form routes document both ways of sending: JSON and multipart with files.
    const content = (create?.requestBody as { content?: Record<string, unknown> } | undefined)?.content ?? {};
    expect(Object.keys(content)).toEqual(['application/json', 'multipart/form-data']);
    expect(JSON.stringify(document.paths['/api/v1/users/{id}']?.patch?.requestBody)).toContain('"profilePic"');
    expect(JSON.stringify(document.paths['/api/v1/users/{id}']?.delete?.requestBody)).toContain('"currentPassword"');
    expect(JSON.stringify(document.paths['/api/v1/transfer-account']?.post?.requestBody)).toContain('"newOwnerEmail"');
    expect(JSON.stringify(document.paths['/api/v1/change-saved-liked-blog-visibility']?.patch?.requestBody)).toContain('"showLikedBlogs"');
    expect(JSON.stringify(document.paths['/api/v1/signin']?.post?.requestBody)).toContain('"password"');
  });

  it('shows paging numbers as integers with their range and default', () => {
    const parameters = ((document.paths['/api/v1/blogs']?.get as { parameters?: unknown[] } | undefined)?.parameters ?? []) as {
      name: string;
      schema: unknown;
    }[];
    expect(parameters.find((p) => p.name === 'page')?.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100_000, default: 1 });
    expect(parameters.find((p) => p.name === 'limit')?.schema).toMatchObject({ type: 'integer', minimum: 1, default: 10 });
  });
});

describe('the API reference page', () => {
  it('is served from our own files with a CSP of its own', async () => {
    const page = await t.app.inject({ url: `${DOCS_PATH}/` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('swagger-ui-bundle.js');
    expect(page.body).not.toMatch(/https?:\/\//); // nothing from a CDN
    expect(page.headers['content-security-policy']).toContain("img-src 'self' data:");
    const bundle = await t.app.inject({ url: `${DOCS_PATH}/static/swagger-ui-bundle.js` });
    expect(bundle.statusCode).toBe(200);
    // The rest of the site keeps its own policy.
    const api = await t.app.inject({ url: '/api/v1/blogs' });
    expect(api.headers['content-security-policy']).not.toBe(page.headers['content-security-policy']);
  });
});
