import {
  MAX_BIO_LENGTH,
  MAX_COMMENT_LENGTH,
  MAX_NAME_LENGTH,
  MAX_SERIES_TITLE_LENGTH,
  MAX_TITLE_LENGTH,
  MAX_USERNAME_LENGTH,
  MIN_USERNAME_LENGTH,
} from '@inkwell/core';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createUser, type TestApp } from '../../test/helpers';
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

type JsonSchema = { properties?: Record<string, Record<string, unknown>>; required?: string[]; anyOf?: unknown[] };
/** The JSON body schema of an operation. */
const bodySchema = (path: string, method: string): JsonSchema => {
  const body = document.paths[path]?.[method]?.requestBody as { content: Record<string, { schema: JsonSchema }> } | undefined;
  return body?.content['application/json']?.schema ?? {};
};
const statusesOf = (path: string, method: string) => Object.keys(document.paths[path]?.[method]?.responses ?? {});

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

describe('what the document says a client must send', () => {
  // Text people read is normalized before its limits are checked (packages/core schemas/text.ts);
  // the limits still belong to what the client sends, so the document shows them.
  it('shows the length limits of the normalized text fields', () => {
    expect(bodySchema('/api/v1/blogs/comment/{blogId}', 'post').properties?.comment).toMatchObject({
      type: 'string',
      minLength: 1,
      maxLength: MAX_COMMENT_LENGTH,
    });
    expect(bodySchema('/api/v1/comment/{parentCommentId}/{blogId}', 'post').properties?.reply).toMatchObject({
      maxLength: MAX_COMMENT_LENGTH,
    });
    expect(bodySchema('/api/v1/blogs', 'post').properties?.title).toMatchObject({
      type: 'string',
      minLength: 1,
      maxLength: MAX_TITLE_LENGTH,
    });
    expect(bodySchema('/api/v1/signup', 'post').properties?.name).toMatchObject({ minLength: 1, maxLength: MAX_NAME_LENGTH });
    const profile = bodySchema('/api/v1/users/{id}', 'patch').properties ?? {};
    expect(profile.name).toMatchObject({ minLength: 1, maxLength: MAX_NAME_LENGTH });
    expect(profile.username).toMatchObject({ minLength: MIN_USERNAME_LENGTH, maxLength: MAX_USERNAME_LENGTH });
    // bio: null clears it like '' does (users/profile-edit.test.ts).
    expect(JSON.stringify(profile.bio)).toContain(`"maxLength":${MAX_BIO_LENGTH}`);
    expect(JSON.stringify(profile.bio)).toContain('"null"');
    expect(bodySchema('/api/v1/series', 'post').properties?.title).toMatchObject({ minLength: 1, maxLength: MAX_SERIES_TITLE_LENGTH });
  });

  it("requires an autosave's version unless the author forces the save, as the server does", async () => {
    const put = bodySchema('/api/v1/blogs/{id}/autosave', 'put');
    expect(put.properties?.version).toMatchObject({ type: 'integer' });
    expect(put.anyOf).toEqual([{ required: ['version'] }, { required: ['force'], properties: { force: { enum: [true] } } }]);
    // The first save of a new post has no version yet: the create call does not take one.
    expect(bodySchema('/api/v1/blogs/autosave', 'post').properties?.version).toBeUndefined();

    const author = await createUser(t, { name: 'Versioned Writer' });
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/blogs/autosave',
      headers: bearer(author.token),
      payload: { title: 'Draft' },
    });
    expect(created.statusCode).toBe(201);
    const { blogId, version } = created.json();
    const url = `/api/v1/blogs/${blogId}/autosave`;
    const missing = await t.app.inject({ method: 'PUT', url, headers: bearer(author.token), payload: { title: 'No version' } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toMatch(/^version is required/);
    const notForced = await t.app.inject({ method: 'PUT', url, headers: bearer(author.token), payload: { title: 'x', force: false } });
    expect(notForced.statusCode).toBe(400);
    const forced = await t.app.inject({ method: 'PUT', url, headers: bearer(author.token), payload: { title: 'Forced', force: true } });
    expect(forced.statusCode).toBe(200);
    const named = await t.app.inject({
      method: 'PUT',
      url,
      headers: bearer(author.token),
      payload: { title: 'Named', version: version + 1 },
    });
    expect(named.statusCode).toBe(200);
  });
});

describe('statuses the server answers are in the document', () => {
  it('415: a JSON route sent another content type', async () => {
    const author = await createUser(t, { name: 'Xml Sender' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/series',
      headers: { ...bearer(author.token), 'content-type': 'application/xml' },
      payload: '<title>x</title>',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ success: false, message: 'Unsupported content type' });
    expect(statusesOf('/api/v1/series', 'post')).toContain('415');
    // Every operation with a body says so; those without one do not.
    expect(statusesOf('/api/v1/blogs', 'post')).toContain('415');
    expect(statusesOf('/api/v1/signin', 'post')).toContain('415');
    expect(statusesOf('/api/v1/series/mine', 'get')).not.toContain('415');
  });

  it('401: sign-in with a wrong password', async () => {
    const user = await createUser(t, { name: 'Forgetful' });
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/signin', payload: { email: user.email, password: 'not-the-password' } });
    expect(res.statusCode).toBe(401);
    expect(res.json().success).toBe(false);
    expect(statusesOf('/api/v1/signin', 'post')).toContain('401');
  });

  it("303: opening a newsletter or digest mail's unsubscribe link", async () => {
    const res = await t.app.inject({ url: '/api/v1/newsletter/unsubscribe/some-token' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/newsletter/unsubscribe/some-token');
    const statuses = statusesOf('/api/v1/newsletter/unsubscribe/{token}', 'get');
    expect(statuses).toContain('303');
    expect(statuses).not.toContain('200'); // it never answers 200
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
