import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../../test/blogs';
import { bearer, createTestApp, createUser, type TestApp, type TestUser } from '../../../test/helpers';

let t: TestApp;
let author: TestUser;
let fan: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  author = await createUser(t, { name: 'Author' });
  fan = await createUser(t, { name: 'Fan' });
});
afterAll(async () => t.close());

const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), payload });
const inbox = async (user: TestUser, query = '') => (await api('GET', `/notifications${query}`, user.token)).json();

describe('what creates a notification', () => {
  it('like, comment, reply, comment like and follow, each with its text and subjects', async () => {
    const { blogId } = await createBlog(t, author, { title: 'Notify me' });
    await api('POST', `/blogs/like/${blogId}`, fan.token);
    const c = (await api('POST', `/blogs/comment/${blogId}`, fan.token, { comment: 'Nice post' })).json().newComment;
    const mine = (await api('POST', `/blogs/comment/${blogId}`, author.token, { comment: 'Thanks all' })).json().newComment;
    await api('POST', `/comment/${mine._id}/${blogId}`, fan.token, { reply: 'You are welcome' });
    await api('PATCH', `/blogs/like-comment/${mine._id}`, fan.token);
    await api('PATCH', `/follow/${author.id}`, fan.token);

    const box = await inbox(author);
    expect(box.unreadCount).toBe(5);
    expect(box.notifications.map((n: { type: string; message: string }) => [n.type, n.message])).toEqual([
      ['follow', 'started following you'],
      ['comment-like', 'liked your comment'],
      ['reply', 'replied to your comment'],
      ['comment', 'commented on your post'],
      ['like', 'liked your post'],
    ]);
    const like = box.notifications[4];
    expect(like).toMatchObject({
      isRead: false,
      sender: { _id: fan.id, name: 'Fan', username: fan.username },
      blog: { blogId, title: 'Notify me' },
      comment: null,
    });
    expect(box.notifications[3].comment).toEqual({ _id: c._id, comment: 'Nice post' });
    // The author's own comment on their own post notified nobody.
    expect((await inbox(fan)).notifications).toEqual([]);
  });

  it('never notifies a person of their own action', async () => {
    const { blogId } = await createBlog(t, author);
    await api('POST', `/blogs/like/${blogId}`, author.token);
    const c = (await api('POST', `/blogs/comment/${blogId}`, author.token, { comment: 'self' })).json().newComment;
    await api('PATCH', `/blogs/like-comment/${c._id}`, author.token);
    await api('POST', `/comment/${c._id}/${blogId}`, author.token, { reply: 'self reply' });
    const types = (await inbox(author)).notifications.filter((n: { blog: { blogId: string } | null }) => n.blog?.blogId === blogId);
    expect(types).toEqual([]);
  });

  it('undoing a like, comment like or follow removes the notification it created', async () => {
    const other = await createUser(t);
    const { blogId } = await createBlog(t, other);
    const c = (await api('POST', `/blogs/comment/${blogId}`, other.token, { comment: 'mine' })).json().newComment;
    for (let i = 0; i < 3; i++) {
      await api('POST', `/blogs/like/${blogId}`, fan.token);
      await api('PATCH', `/blogs/like-comment/${c._id}`, fan.token);
      await api('PATCH', `/follow/${other.id}`, fan.token);
    }
    expect((await inbox(other)).notifications.map((n: { type: string }) => n.type).sort()).toEqual(['comment-like', 'follow', 'like']);
    await api('POST', `/blogs/like/${blogId}`, fan.token);
    await api('PATCH', `/blogs/like-comment/${c._id}`, fan.token);
    await api('PATCH', `/follow/${other.id}`, fan.token);
    expect(await inbox(other)).toMatchObject({ notifications: [], unreadCount: 0 });
  });

  it('a new post reaches followers; an edit reaches likers and savers once', async () => {
    const writer = await createUser(t, { name: 'Writer' });
    const follower = await createUser(t);
    const saver = await createUser(t);
    await api('PATCH', `/follow/${writer.id}`, follower.token);
    const { blogId } = await createBlog(t, writer, { title: 'Fresh' });
    expect((await inbox(follower)).notifications[0]).toMatchObject({
      type: 'other',
      message: 'published a new post',
      blog: { blogId, title: 'Fresh' },
    });
    await api('PATCH', `/save-blog/${blogId}`, saver.token);
    await api('POST', `/blogs/like/${blogId}`, saver.token);
    for (const title of ['Fresh v2', 'Fresh v3']) {
      await api('PATCH', `/blogs/${blogId}`, writer.token, {
        title,
        description: 'd',
        content: { blocks: [{ type: 'paragraph', data: { text: title } }] },
      });
    }
    const updates = (await inbox(saver)).notifications.filter((n: { type: string }) => n.type === 'blog-update');
    expect(updates).toHaveLength(1);
    expect(updates[0]).toMatchObject({ message: 'updated their post', blog: { title: 'Fresh v3' } });
    // Drafts notify nobody.
    const before = (await inbox(follower)).notifications.length;
    await createBlog(t, writer, { draft: true });
    expect((await inbox(follower)).notifications.length).toBe(before);
  });

  it('deleting the blog removes the notifications about it', async () => {
    const { blogId } = await createBlog(t, author);
    await api('POST', `/blogs/like/${blogId}`, fan.token);
    expect((await inbox(author)).notifications.some((n: { blog: { blogId: string } | null }) => n.blog?.blogId === blogId)).toBe(true);
    await api('DELETE', `/blogs/${blogId}`, author.token);
    expect((await inbox(author)).notifications.some((n: { blog: { blogId: string } | null }) => n.blog?.blogId === blogId)).toBe(false);
  });
});

describe('notification calls', () => {
  it('filters, pages, marks read and deletes, only for the recipient', async () => {
    const me = await createUser(t);
    const others = await Promise.all(Array.from({ length: 3 }, () => createUser(t)));
    const { blogId } = await createBlog(t, me);
    for (const o of others) {
      await api('POST', `/blogs/like/${blogId}`, o.token);
      await api('PATCH', `/follow/${me.id}`, o.token);
    }
    await api('POST', `/blogs/comment/${blogId}`, others[0]!.token, { comment: 'hey' });
    expect((await inbox(me, '?filter=like')).notifications).toHaveLength(3);
    expect((await inbox(me, '?filter=follow')).notifications).toHaveLength(3);
    expect((await inbox(me, '?filter=comment')).notifications).toHaveLength(1);
    const page1 = await inbox(me, '?limit=4&page=1');
    expect(page1.notifications).toHaveLength(4);
    expect(page1.hasMore).toBe(true);
    expect(page1.unreadCount).toBe(7);
    expect((await api('GET', '/notifications?filter=bogus', me.token)).statusCode).toBe(400);
    expect((await api('GET', '/notifications?limit=100', me.token)).statusCode).toBe(400);

    const first = page1.notifications[0]._id;
    // Someone else cannot read, mark or delete it.
    expect((await api('PATCH', `/notifications/${first}/read`, fan.token)).statusCode).toBe(404);
    expect((await api('DELETE', `/notifications/${first}`, fan.token)).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/v1/notifications' })).statusCode).toBe(401);

    const read = await api('PATCH', `/notifications/${first}/read`, me.token);
    expect(read.json()).toEqual({ success: true, message: 'Marked Read Successfully', unreadCount: 6 });
    expect((await inbox(me, '?filter=unread')).notifications).toHaveLength(6);
    const del = await api('DELETE', `/notifications/${first}`, me.token);
    expect(del.json()).toMatchObject({ message: 'Notification deleted', unreadCount: 6 });
    expect((await api('PATCH', '/notifications/mark-read', me.token)).json()).toEqual({
      success: true,
      message: 'All notifications marked as read',
      unreadCount: 0,
    });
    expect((await inbox(me)).notifications.every((n: { isRead: boolean }) => n.isRead)).toBe(true);
    expect((await api('DELETE', '/notifications', me.token)).json()).toMatchObject({
      message: 'All notifications cleared',
      unreadCount: 0,
    });
    expect((await inbox(me)).notifications).toEqual([]);
    expect((await inbox(fan)).notifications.length).toBeGreaterThanOrEqual(0);
  });
});

describe('pages by cursor', () => {
  const idsOf = (page: { notifications: { _id: string }[] }) => page.notifications.map((n) => n._id);

  it('goes on after the last item seen, however many earlier items were read or deleted meanwhile', async () => {
    const me = await createUser(t);
    const others = await Promise.all(Array.from({ length: 4 }, () => createUser(t)));
    const { blogId } = await createBlog(t, me);
    for (const o of others) {
      await api('POST', `/blogs/like/${blogId}`, o.token);
      await api('PATCH', `/follow/${me.id}`, o.token);
    }
    const all = idsOf(await inbox(me, '?limit=50'));
    expect(all).toHaveLength(8);

    const first = await inbox(me, '?filter=unread&limit=3');
    expect(idsOf(first)).toEqual(all.slice(0, 3));
    expect(first.nextCursor).toEqual(expect.any(String));
    // The reader marks what they saw read, so it leaves the Unread filter: page=2 now skips three.
    for (const id of idsOf(first)) await api('PATCH', `/notifications/${id}/read`, me.token);
    expect(idsOf(await inbox(me, '?filter=unread&limit=3&page=2'))).toEqual(all.slice(6, 8));
    const second = await inbox(me, `?filter=unread&limit=3&cursor=${first.nextCursor}`);
    expect(idsOf(second)).toEqual(all.slice(3, 6));
    await api('DELETE', `/notifications/${all[3]}`, me.token); // the cursor's row may go too
    const third = await inbox(me, `?filter=unread&limit=3&cursor=${second.nextCursor}`);
    expect(idsOf(third)).toEqual(all.slice(6, 8));
    expect([third.hasMore, third.nextCursor]).toEqual([false, null]);
  });

  it('orders items of the same instant by id, so none is seen twice or skipped', async () => {
    const me = await createUser(t);
    const others = await Promise.all(Array.from({ length: 5 }, () => createUser(t)));
    for (const o of others) await api('PATCH', `/follow/${me.id}`, o.token);
    await t.database.db
      .updateTable('notifications')
      .set({ created_at: '2026-11-30T08:00:00.000Z' })
      .where('recipient_id', '=', me.id)
      .execute();
    const seen: string[] = [];
    let cursor = '';
    for (let i = 0; i < 5; i++) {
      const page = await inbox(me, `?limit=2${cursor && `&cursor=${cursor}`}`);
      seen.push(...idsOf(page));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    expect(seen).toEqual(idsOf(await inbox(me, '?limit=50')));
    expect(new Set(seen).size).toBe(5);
  });

  it('refuses a cursor it did not make with 400', async () => {
    const me = await createUser(t);
    const forged = (parts: unknown) => Buffer.from(JSON.stringify(parts)).toString('base64url');
    for (const cursor of [
      'x',
      forged(['2026-11-30T08:00:00.000Z']),
      forged(['yesterday', '0190a1b2-0000-7000-8000-000000000000']),
      forged(['2026-11-30T08:00:00.000Z', 'not-a-uuid']),
    ]) {
      const res = await api('GET', `/notifications?cursor=${encodeURIComponent(cursor)}`, me.token);
      expect([res.statusCode, res.json().message]).toEqual([400, 'Invalid cursor']);
    }
  });
});

describe('a push that fails after the change committed', () => {
  it('keeps the change and the notification, and logs the failure once per push', async () => {
    const lines: { level: number; msg?: string; err?: { message?: string } }[] = [];
    const logged = await createTestApp({ logLevel: 'warn' }, undefined, undefined, {
      logStream: { write: (line: string) => void lines.push(JSON.parse(line)) },
    });
    try {
      const writer = await createUser(logged, { name: 'Writer' });
      const reader = await createUser(logged, { name: 'Reader' });
      // The realtime server goes away after the app started: every recipient may be listening,
      // and every push throws.
      logged.app.services.notifications.attachPush(
        {
          mayBeListening: () => true,
          toUser: () => {
            throw new Error('realtime server gone');
          },
        },
        (err) => logged.app.log.warn({ err }, 'notification push failed'),
      );
      const call = (method: 'POST' | 'PATCH', url: string, payload?: object) =>
        logged.app.inject({ method, url: `/api/v1${url}`, headers: bearer(reader.token), payload });
      const failures = () => lines.filter((l) => l.msg === 'notification push failed');
      const { blogId } = await createBlog(logged, writer);

      expect((await call('POST', `/blogs/like/${blogId}`)).statusCode).toBe(200);
      expect(failures()).toHaveLength(1);
      const comment = await call('POST', `/blogs/comment/${blogId}`, { comment: 'Still here' });
      expect(comment.statusCode).toBe(201);
      expect(failures()).toHaveLength(2);
      // Undoing a like and a comment like push the new unread count, which fails the same way.
      expect((await call('POST', `/blogs/like/${blogId}`)).statusCode).toBe(200);
      expect(failures()).toHaveLength(3);
      const mine = (
        await logged.app.inject({
          method: 'POST',
          url: `/api/v1/blogs/comment/${blogId}`,
          headers: bearer(writer.token),
          payload: { comment: 'Mine' },
        })
      ).json().newComment;
      await call('PATCH', `/blogs/like-comment/${mine._id}`);
      expect(failures()).toHaveLength(4);
      expect((await call('PATCH', `/blogs/like-comment/${mine._id}`)).statusCode).toBe(200);
      expect(failures()).toHaveLength(5);
      expect(failures().every((l) => l.err?.message === 'realtime server gone')).toBe(true);

      // What the pushes were about is stored all the same: the comment's notice is in the inbox.
      const box = (await logged.app.inject({ url: '/api/v1/notifications', headers: bearer(writer.token) })).json();
      expect(box.notifications.map((n: { type: string }) => n.type)).toEqual(['comment']);
    } finally {
      await logged.close();
    }
  });
});
