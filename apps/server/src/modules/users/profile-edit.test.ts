import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createUser, type TestApp, type TestUser } from '../../../test/helpers';
import { pngImage } from '../../../test/images';
import { multipartBody } from '../../../test/multipart';
import { count } from './test-fixtures';

let t: TestApp;
let ann: TestUser;
let bob: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  [ann, bob] = await Promise.all([createUser(t, { name: 'Ann' }), createUser(t, { name: 'Bob' })]);
});
afterAll(async () => t.close());

const patch = (user: TestUser, payload: Record<string, unknown>, id = user.id) =>
  t.app.inject({ method: 'PATCH', url: `/api/v1/users/${id}`, headers: bearer(user.token), payload });
const patchMultipart = async (user: TestUser, fields: Record<string, string>, picture?: Buffer) => {
  const { payload, headers } = multipartBody(
    fields,
    picture ? [{ field: 'profilePic', filename: 'me.png', content: picture, contentType: 'image/png' }] : [],
  );
  return t.app.inject({ method: 'PATCH', url: `/api/v1/users/${user.id}`, headers: { ...headers, ...bearer(user.token) }, payload });
};
const fileOf = (url: string) => path.join(t.config.dataDir, 'uploads', url.replace(/^\/uploads\//, ''));

describe('PATCH /users/{id}', () => {
  it('needs a token and refuses someone else’s profile', async () => {
    expect((await t.app.inject({ method: 'PATCH', url: `/api/v1/users/${ann.id}`, payload: { name: 'X' } })).statusCode).toBe(401);
    const res = await patch(bob, { name: 'Hacked' }, ann.id);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ success: false, message: 'You can only change your own profile' });
  });

  it.each([
    [{ bio: 'x'.repeat(161) }, 'Bio must be at most 160 characters'],
    [{ username: 'ab' }, 'Username must be 3-20 characters'],
    [{ username: 'a'.repeat(21) }, 'Username must be 3-20 characters'],
    [{ username: 'bad name!' }, 'Username can contain only lowercase letters, numbers and underscores'],
    [{ username: 'admin' }, 'This username is not available'],
    [{ name: '   ' }, 'Name is required'],
    [{ profilePic: 'https://tracker.example/pixel.png' }, 'Profile picture must be an image you uploaded'],
    [{ profilePic: 42 }, 'profilePic must be a file, an image URL or an empty string'],
  ])('refuses %j', async (payload, message) => {
    const res = await patch(ann, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, message });
  });

  it('updates name, username and bio and returns the refreshed session user', async () => {
    const username = `ann_${Date.now().toString(36)}`;
    const res = await patch(ann, { name: ' Ann Lee ', username: username.toUpperCase(), bio: 'Writes about SQL' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.message).toBe('Profile updated successfully');
    expect(body.user).toMatchObject({ id: ann.id, name: 'Ann Lee', username, bio: 'Writes about SQL', email: ann.email });
    expect((await t.app.inject({ url: '/api/v1/me', headers: bearer(body.user.token) })).statusCode).toBe(200);
    expect((await t.app.inject({ url: `/api/v1/users/${username}` })).json().user.bio).toBe('Writes about SQL');
    expect((await t.app.inject({ url: `/api/v1/users/${ann.username}` })).statusCode).toBe(404);
    ann.username = username;
  });

  // null: a client echoing the profile back (bio is null there when empty) clears the bio; the
  // required fields refuse it with their message and nothing else in the request is saved.
  it('clears the bio on null; refuses null for name and username and changes nothing', async () => {
    const user = await createUser(t, { name: 'Nora Null' });
    const me = async () => (await t.app.inject({ url: `/api/v1/users/${user.username}` })).json().user;
    expect((await patch(user, { bio: 'Something to clear' })).statusCode).toBe(200);
    const cleared = await patch(user, { bio: null });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().user.bio).toBeNull();
    expect((await me()).bio).toBeNull();

    expect((await patch(user, { bio: 'Kept' })).statusCode).toBe(200);
    for (const [payload, message] of [
      [{ name: null }, 'Name is required'],
      [{ username: null }, 'Username is required'],
      [{ name: null, bio: 'Not saved either' }, 'Name is required'],
      [{ username: null, bio: null }, 'Username is required'],
    ] as const) {
      const res = await patch(user, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ success: false, message });
    }
    expect(await me()).toMatchObject({ name: 'Nora Null', username: user.username, bio: 'Kept' });
  });

  it('answers 409 for a username someone else has', async () => {
    const res = await patch(bob, { username: ann.username });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Username is already taken');
    // Keeping one's own username is not a conflict.
    expect((await patch(ann, { username: ann.username })).statusCode).toBe(200);
  });

  it('uploads a picture, replaces it and removes it, deleting the old files', async () => {
    const first = await patchMultipart(ann, { name: 'Ann Lee' }, await pngImage(300, 200));
    expect(first.statusCode).toBe(200);
    const url1 = first.json().user.profilePic as string;
    expect(url1).toMatch(/^\/uploads\/avatar\/.+\.webp$/);
    expect(existsSync(fileOf(url1))).toBe(true);
    expect((await t.app.inject({ url: url1 })).statusCode).toBe(200);

    // The current URL sent back unchanged keeps the picture.
    expect((await patch(ann, { profilePic: url1, bio: 'Same picture' })).json().user.profilePic).toBe(url1);

    const second = await patchMultipart(ann, {}, await pngImage(64, 64, '#ff0000'));
    const url2 = second.json().user.profilePic as string;
    expect(url2).not.toBe(url1);
    expect(existsSync(fileOf(url1))).toBe(false);
    expect(existsSync(fileOf(url2))).toBe(true);
    expect(await count(t, 'uploads', 'owner_id', ann.id)).toBe(1);

    // Bob cannot point his picture at Ann's upload.
    expect((await patch(bob, { profilePic: url2 })).statusCode).toBe(400);

    const removed = await patchMultipart(ann, { profilePic: '' });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().user.profilePic).toBeNull();
    expect(existsSync(fileOf(url2))).toBe(false);
    expect(await count(t, 'uploads', 'owner_id', ann.id)).toBe(0);
  });

  it('refuses a file that is not an image and keeps the old picture', async () => {
    const before = (await patchMultipart(ann, {}, await pngImage(50, 50))).json().user.profilePic;
    const res = await patchMultipart(ann, {}, Buffer.from('not an image at all'));
    expect(res.statusCode).toBe(400);
    expect(res.json().success).toBe(false);
    expect((await t.app.inject({ url: `/api/v1/users/${ann.username}` })).json().user.profilePic).toBe(before);
    expect(existsSync(fileOf(before))).toBe(true);
  });
});
