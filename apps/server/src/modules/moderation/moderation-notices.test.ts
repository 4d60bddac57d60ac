import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../../test/blogs';
import { bearer, createTestApp, createUser, type TestApp, type TestUser } from '../../../test/helpers';

/** An author is told when a moderator hides or restores their post or comment, and why. */
let t: TestApp;
let moderator: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  moderator = await createUser(t, { name: 'Mona Moderator' });
  await t.app.services.moderation.setRole(null, moderator.id, 'moderator');
});
afterAll(async () => t.close());

const api = (method: 'GET' | 'POST' | 'PATCH', url: string, token: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), payload });
const inbox = async (user: TestUser) => (await api('GET', '/notifications', user.token)).json();

describe('moderation notices', () => {
  it("tells a post's author it was hidden and restored, with the reasons, from no one; a block or mute of the moderator does not silence it", async () => {
    const author = await createUser(t);
    const { blogId, title } = await createBlog(t, author, { title: 'A post a moderator hides' });
    // The author blocked and muted the moderator first: moderators act for the site, not as themselves.
    expect((await api('POST', `/users/${moderator.id}/block`, author.token)).statusCode).toBe(200);
    expect((await api('POST', `/users/${moderator.id}/mute`, author.token)).statusCode).toBe(200);

    const hide = await api('POST', `/moderation/posts/${blogId}/hide`, moderator.token, { reason: 'Link farm' });
    expect(hide.statusCode, hide.body).toBe(200);
    let box = await inbox(author);
    expect(box.unreadCount).toBe(1);
    expect(box.notifications[0]).toMatchObject({
      type: 'moderation',
      message: 'hid your post: “Link farm”',
      sender: null,
      isRead: false,
      // The author still reads the hidden post: its title and link are shown.
      blog: { blogId, title },
    });

    expect((await api('POST', `/moderation/posts/${blogId}/restore`, moderator.token, { reason: 'Appeal accepted' })).statusCode).toBe(200);
    box = await inbox(author);
    expect(box.notifications.map((n: { message: string }) => n.message)).toEqual([
      'restored your post: “Appeal accepted”',
      'hid your post: “Link farm”',
    ]);
    // Nobody else hears of it.
    expect((await inbox(moderator)).notifications).toEqual([]);
  });

  it("tells a comment's author, naming the comment", async () => {
    const [writer, commenter] = [await createUser(t), await createUser(t)];
    const { blogId } = await createBlog(t, writer);
    const posted = await api('POST', `/blogs/comment/${blogId}`, commenter.token, { comment: 'Buy cheap watches' });
    const commentId = posted.json().newComment._id as string;
    const hide = await api('POST', `/moderation/comments/${commentId}/hide`, moderator.token, { reason: 'Spam' });
    expect(hide.statusCode, hide.body).toBe(200);
    const [notice] = (await inbox(commenter)).notifications;
    expect(notice).toMatchObject({
      type: 'moderation',
      message: 'hid your comment: “Spam”',
      sender: null,
      blog: { blogId },
      comment: { _id: commentId, comment: 'Buy cheap watches' },
    });
    // The post's author was told of the comment, not of its hiding.
    expect((await inbox(writer)).notifications.map((n: { type: string }) => n.type)).toEqual(['comment']);
  });
});
