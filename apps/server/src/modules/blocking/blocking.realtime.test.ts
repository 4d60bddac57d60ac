import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../../test/blogs';
import { bearer, createTestApp, createUser, type TestApp } from '../../../test/helpers';
import { waitFor } from '../../../test/smtp';
import { client, listen } from '../../../test/sockets';

let t: TestApp;
let url: string;
beforeAll(async () => {
  t = await createTestApp();
  url = await listen(t.app);
});
afterAll(async () => t.close());

const api = (method: 'POST' | 'PATCH' | 'DELETE', path: string, token: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${path}`, headers: bearer(token), payload });

describe('sockets (issue 15)', () => {
  it('push nothing from a blocked or muted sender to the blocker or muter', async () => {
    const owner = await createUser(t, { name: 'Owner' });
    const blocked = await createUser(t, { name: 'Blocked' });
    const muted = await createUser(t, { name: 'Muted' });
    const friend = await createUser(t, { name: 'Friend' });
    const { blogId } = await createBlog(t, owner);
    await api('POST', `/users/${blocked.id}/block`, owner.token);
    await api('POST', `/users/${muted.id}/mute`, owner.token);
    const tab = await client(url, owner.token, owner.id);

    expect((await api('PATCH', `/follow/${owner.id}`, blocked.token)).statusCode).toBe(403);
    expect((await api('POST', `/blogs/comment/${blogId}`, blocked.token, { comment: 'x' })).statusCode).toBe(403);
    expect((await api('POST', `/blogs/comment/${blogId}`, muted.token, { comment: 'muted' })).statusCode).toBe(201);
    expect((await api('PATCH', `/follow/${owner.id}`, muted.token)).statusCode).toBe(200);
    // Pushes go out in commit order: once the friend's arrives, any earlier one would have too.
    await api('POST', `/blogs/comment/${blogId}`, friend.token, { comment: 'hello' });
    await waitFor(() => tab.notifications.length > 0 && tab.counts.length > 0);
    expect(tab.notifications.map((n) => (n as unknown as { sender: { name: string } }).sender.name)).toEqual(['Friend']);
    expect(tab.counts.at(-1)).toBe(1);
  });
});

describe('a block or mute and the notifications already there', () => {
  it("takes a follow's notice with the follow a block ends, and tells the blocker's open tabs each change of what they are shown", async () => {
    const owner = await createUser(t, { name: 'Blocking owner' });
    const fan = await createUser(t, { name: 'Fan' });
    const noisy = await createUser(t, { name: 'Noisy' });
    expect((await api('PATCH', `/follow/${owner.id}`, fan.token)).statusCode).toBe(200);
    expect((await api('PATCH', `/follow/${owner.id}`, noisy.token)).statusCode).toBe(200);
    const unread = async () =>
      (await t.app.inject({ url: '/api/v1/notifications?filter=unread', headers: bearer(owner.token) })).json().notifications.length;
    expect(await unread()).toBe(2);
    const tab = await client(url, owner.token, owner.id);
    let rereads = 0;
    tab.socket.on('notificationRemoved', () => rereads++);

    // The block ends the fan's follow: its notice goes and stays gone after an unblock.
    await api('POST', `/users/${fan.id}/block`, owner.token);
    await waitFor(() => tab.counts.at(-1) === 1 || undefined);
    await api('DELETE', `/users/${fan.id}/block`, owner.token);
    expect(await unread()).toBe(1);
    // A mute hides the other's notice, an unmute brings it back: each time the tab hears of it.
    await api('POST', `/users/${noisy.id}/mute`, owner.token);
    await waitFor(() => tab.counts.at(-1) === 0 || undefined);
    await api('DELETE', `/users/${noisy.id}/mute`, owner.token);
    await waitFor(() => tab.counts.at(-1) === 1 || undefined);
    // One for each of the four changes, the block's ended follow included (it said it twice).
    expect(rereads).toBe(4);
  });
});
