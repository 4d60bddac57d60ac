import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createUser, type TestApp, type TestUser } from '../../test/helpers';
import { multipartBody } from '../../test/multipart';

// The form routes validate their bodies with the route schema (lib/form-body.ts reads the form
// first): the answers below are the ones the handlers gave when they validated bodies themselves.
let t: TestApp;
let ann: TestUser;
let bob: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  [ann, bob] = await Promise.all([createUser(t, { name: 'Ann' }), createUser(t, { name: 'Bob' })]);
});
afterAll(async () => t.close());

const send = (method: 'POST' | 'PATCH' | 'DELETE', url: string, user: TestUser, payload?: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: { ...headers, ...bearer(user.token) }, payload: payload as string });

describe('form bodies', () => {
  it('a missing body is an empty form, answered with the schema’s message as written', async () => {
    const res = await send('PATCH', '/change-password', ann);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, message: 'New password is required' });
    const transfer = await send('POST', '/transfer-account', ann, {});
    expect(transfer.json()).toEqual({ success: false, message: 'Recipient email is required' });
    const visibility = await send('PATCH', '/change-saved-liked-blog-visibility', ann);
    expect(visibility.json()).toEqual({ success: false, message: 'Nothing to update' });
  });

  it('a body that is not an object is refused with one message', async () => {
    for (const [method, url] of [
      ['POST', '/blogs'],
      ['PATCH', '/change-password'],
      ['DELETE', `/users/${ann.id}`],
    ] as const) {
      const res = await send(method, url, ann, JSON.stringify([1]), { 'content-type': 'application/json' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ success: false, message: 'Request body must be an object' });
    }
  });

  it('blog fields are named in front of a message that does not name them, in JSON and in a form', async () => {
    const json = await send('POST', '/blogs', ann, { title: 'A title', draft: 'maybe' });
    expect(json.statusCode).toBe(400);
    expect(json.json().message).toMatch(/^draft: /);
    const { payload, headers } = multipartBody({ title: '   ' });
    const form = await send('POST', '/blogs', ann, payload, headers);
    expect(form.statusCode).toBe(400);
    expect(form.json()).toEqual({ success: false, message: 'Title is required' });
  });

  it('someone else’s profile is refused before its body is read or validated', async () => {
    const res = await send('PATCH', `/users/${ann.id}`, bob, { bio: 'x'.repeat(500) });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ success: false, message: 'You can only change your own profile' });
  });

  it('a form with a file in the wrong field is refused before its fields', async () => {
    const { payload, headers } = multipartBody({ bio: 'x'.repeat(500) }, [{ field: 'avatar', filename: 'a.png', content: 'x' }]);
    const res = await send('PATCH', `/users/${ann.id}`, ann, payload, headers);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, message: 'Send the picture in the profilePic field' });
  });
});

describe('rate limits of form routes', () => {
  // As when handlers read their bodies: a refused form still counts, and one over the limit is not read.
  it('are counted before the form is read', async () => {
    const strict = await createTestApp({ rateLimitFactor: 1e-9 }, t);
    try {
      const carl = await createUser(t, { name: 'Carl' });
      const form = () => {
        const { payload, headers } = multipartBody({}, [{ field: 'avatar', filename: 'a.png', content: 'x' }]);
        return strict.app.inject({
          method: 'PATCH',
          url: `/api/v1/users/${carl.id}`,
          headers: { ...headers, ...bearer(carl.token) },
          payload,
          remoteAddress: '10.99.0.1',
        });
      };
      const first = await form();
      expect(first.json()).toEqual({ success: false, message: 'Send the picture in the profilePic field' });
      expect((await form()).statusCode).toBe(429);
    } finally {
      await strict.close();
    }
  });
});
