import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog, postComment } from '../../../test/blogs';
import { bearer, createTestApp, createUser, type TestApp, type TestUser } from '../../../test/helpers';

/**
 * Writes that meet other writes, as a double click, two tabs or two people produce them. On
 * PostgreSQL they really run at once (a pool of connections); on SQLite they interleave between
 * awaits. Either way every answer is a 2xx or a clear 4xx, and every stored count equals its rows.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const api = (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, token: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), payload });
const statuses = (answers: { statusCode: number }[]) => answers.map((a) => a.statusCode);
const db = () => t.app.services.repos;

async function countsOf(user: TestUser) {
  const row = (await db().users.findById(user.id))!;
  const rows = t.database.db;
  const followers = await rows
    .selectFrom('follows')
    .select((e) => e.fn.countAll<number>().as('n'))
    .where('following_id', '=', user.id)
    .executeTakeFirstOrThrow();
  const following = await rows
    .selectFrom('follows')
    .select((e) => e.fn.countAll<number>().as('n'))
    .where('follower_id', '=', user.id)
    .executeTakeFirstOrThrow();
  const published = await rows
    .selectFrom('blogs')
    .select((e) => e.fn.countAll<number>().as('n'))
    .where('creator_id', '=', user.id)
    .where('draft', '=', 0)
    .executeTakeFirstOrThrow();
  return {
    stored: [Number(row.follower_count), Number(row.following_count), Number(row.published_count)],
    rows: [Number(followers.n), Number(following.n), Number(published.n)],
  };
}

describe('concurrent writes', () => {
  it('publishing a draft from five requests at once counts it once and tells each follower once', async () => {
    const [author, follower] = await Promise.all([createUser(t), createUser(t)]);
    await api('PATCH', `/follow/${author.id}`, follower.token);
    const { blogId } = await createBlog(t, author, { draft: true });
    const answers = await Promise.all(Array.from({ length: 5 }, () => api('PATCH', `/blogs/${blogId}`, author.token, { draft: false })));
    for (const s of statuses(answers)) expect([200, 409]).toContain(s);
    expect(statuses(answers)).toContain(200);
    const { stored, rows } = await countsOf(author);
    expect(stored).toEqual(rows);
    expect(rows[2]).toBe(1);
    const told = (await api('GET', '/notifications?limit=50', follower.token))
      .json()
      .notifications.filter((n: { message: string }) => n.message.includes('published a new post'));
    expect(told).toHaveLength(1);
  });

  it('two partial edits at once both stay', async () => {
    const author = await createUser(t);
    const { blogId } = await createBlog(t, author);
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all([
        api('PATCH', `/blogs/${blogId}`, author.token, { title: `Title ${round}` }),
        api('PATCH', `/blogs/${blogId}`, author.token, { description: `Description ${round}` }),
      ]);
      expect(statuses(answers)).toEqual([200, 200]);
      const blog = (await api('GET', `/blogs/${blogId}`, author.token)).json().blog;
      expect([blog.title, blog.description]).toEqual([`Title ${round}`, `Description ${round}`]);
    }
  });

  it('likes, saves, comments and replies racing the deletion of their post answer 2xx or 404, never 500', async () => {
    const [author, ...readers] = await Promise.all([createUser(t), ...Array.from({ length: 6 }, () => createUser(t))]);
    for (let round = 0; round < 4; round++) {
      const { blogId } = await createBlog(t, author);
      const top = await postComment(t, author, blogId, 'A comment');
      const racing = readers.flatMap((r) => [
        api('POST', `/blogs/like/${blogId}`, r.token),
        api('POST', `/blogs/save/${blogId}`, r.token),
        api('POST', `/blogs/comment/${blogId}`, r.token, { comment: 'Racing comment' }),
        api('POST', `/comment/${top._id}/${blogId}`, r.token, { reply: 'Racing reply' }),
        api('PATCH', `/blogs/like-comment/${top._id}`, r.token),
      ]);
      const answers = await Promise.all([...racing, api('DELETE', `/blogs/${blogId}`, author.token)]);
      const deleted = answers.at(-1)!;
      expect(deleted.statusCode, deleted.body).toBe(200);
      for (const a of answers) expect([200, 201, 404], a.body).toContain(a.statusCode);
      expect(await db().blogs.findByBlogId(blogId)).toBeUndefined();
    }
  });

  it('follows racing the deletion of an account leave every other count equal to its rows, and the deletion succeeds', async () => {
    for (let round = 0; round < 3; round++) {
      const [leaving, ...others] = await Promise.all([createUser(t), ...Array.from({ length: 8 }, () => createUser(t))]);
      await api('PATCH', `/follow/${others[0]!.id}`, leaving.token);
      // Each of the others toggles a follow of the leaving account, and it of them, until the deletion is answered.
      let deleting = true;
      const answers: { statusCode: number; body: string }[] = [];
      // Bounded: on SQLite these in-process follows never yield to the event loop's macrotasks, so the
      // deletion (its password check answers from the thread pool) waits until they stop.
      const loops = others.map(async (o, i) => {
        for (let n = 0; deleting && n < 25; n++) {
          answers.push(await api('PATCH', i % 2 ? `/follow/${o.id}` : `/follow/${leaving.id}`, i % 2 ? leaving.token : o.token));
        }
      });
      await new Promise((resolve) => setTimeout(resolve, 30));
      const remove = () =>
        t.app.inject({
          method: 'DELETE',
          url: `/api/v1/users/${leaving.id}`,
          headers: bearer(leaving.token),
          payload: { currentPassword: 'quill-and-ink-42' },
        });
      let deleted = await remove();
      deleting = false;
      await Promise.all(loops);
      // PostgreSQL may pick the deletion as a deadlock's victim on each of its attempts (a follow
      // statement removes its row before it locks the users, the deletion the other way round):
      // then it changed nothing and says to try again, which works once the follows stop.
      if (deleted.statusCode === 409) deleted = await remove();
      expect(deleted.statusCode, deleted.body).toBe(200);
      // A follow answered before the deletion, or refused after it (account gone: 401, 404).
      for (const a of answers) expect([200, 401, 404], a.body).toContain(a.statusCode);
      for (const o of others) {
        const { stored, rows } = await countsOf(o);
        expect(stored, `round ${round}`).toEqual(rows);
      }
    }
  });
});
