import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../../test/blogs';
import { bearer, createTestApp, createUser, type TestApp, type TestUser } from '../../../test/helpers';

let t: TestApp;
let writer: TestUser;
let follower: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  writer = await createUser(t, { name: 'Writer' });
  follower = await createUser(t, { name: 'Follower' });
});
afterAll(async () => t.close());

const api = (method: 'GET' | 'POST' | 'PATCH', url: string, token: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), payload });
type Item = { type: string; blog: { blogId: string; title: string } | null; comment: unknown };
const inbox = async (user: TestUser): Promise<Item[]> => (await api('GET', '/notifications?limit=50', user.token)).json().notifications;

describe('notifications about a blog their reader cannot see', () => {
  it('show no title, no link and no comment once the post is a draft again, and come back when it is republished', async () => {
    await api('PATCH', `/follow/${writer.id}`, follower.token);
    const { blogId } = await createBlog(t, writer, { title: 'Public title' });
    const parent = (await api('POST', `/blogs/comment/${blogId}`, follower.token, { comment: 'First!' })).json().newComment;
    await api('POST', `/comment/${parent._id}/${blogId}`, writer.token, { reply: 'Thanks for reading' });

    const before = await inbox(follower);
    const published = before.find((n) => n.type === 'other');
    const reply = before.find((n) => n.type === 'reply');
    expect(published?.blog).toEqual({ blogId, title: 'Public title' });
    expect(reply?.blog).toEqual({ blogId, title: 'Public title' });

    // Back to draft under a new, secret title.
    const toDraft = await api('PATCH', `/blogs/${blogId}`, writer.token, {
      title: 'Secret new title',
      description: 'd',
      draft: true,
      content: { blocks: [{ type: 'paragraph', data: { text: 'hidden' } }] },
    });
    expect(toDraft.statusCode).toBe(200);
    const hidden = await inbox(follower);
    expect(hidden.filter((n) => n.type === 'other' || n.type === 'reply')).toHaveLength(2);
    for (const n of hidden) {
      expect(n.blog, n.type).toBeNull();
      expect(n.comment, n.type).toBeNull();
    }
    expect(JSON.stringify(hidden)).not.toContain('Secret new title');
    // The author still sees their own draft in their notifications.
    const own = await inbox(writer);
    expect(own.find((n) => n.type === 'comment')?.blog).toEqual({ blogId, title: 'Secret new title' });

    await api('PATCH', `/blogs/${blogId}`, writer.token, {
      title: 'Public again',
      description: 'd',
      draft: false,
      content: { blocks: [{ type: 'paragraph', data: { text: 'shown' } }] },
    });
    const again = await inbox(follower);
    expect(again.find((n) => n.type === 'reply')?.blog).toEqual({ blogId, title: 'Public again' });
  });
});
