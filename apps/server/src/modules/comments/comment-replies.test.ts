import { MAX_REPLIES_PER_PAGE } from '@inkwell/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../../test/blogs';
import { bearer, createTestApp, createUser, type TestApp, type TestUser } from '../../../test/helpers';
import { newId } from '../../db/ids';

/** Threads with more replies than a page of comments lists: every reply can still be read. */
let t: TestApp;
let author: TestUser;
let reader: TestUser;
let someone: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  author = await createUser(t, { name: 'Blog Author' });
  reader = await createUser(t, { name: 'Rea Reader' }); // wrote every comment
  someone = await createUser(t, { name: 'Some One' });
});
afterAll(async () => t.close());

interface Row {
  id: string;
  parent_id: string | null;
  created_at: string;
  hidden: number;
  reply_count: number;
}
const start = Date.parse('2026-01-01T00:00:00.000Z');
const get = (url: string, token?: string) => t.app.inject({ url: `/api/v1${url}`, headers: token ? bearer(token) : {} });

/** Writes the comments straight into the table (700 replies through the API would meet its rate limit). */
async function seed(blogDbId: string, rows: Row[]) {
  const values = rows.map((r) => ({
    ...r,
    blog_id: blogDbId,
    user_id: reader.id,
    comment: `comment ${r.id}`,
    like_count: 0,
    updated_at: r.created_at,
  }));
  for (let i = 0; i < values.length; i += 200)
    await t.database.db
      .insertInto('comments')
      .values(values.slice(i, i + 200))
      .execute();
}

/**
 * Three threads: C's 5 replies come first, then A's and B's alternate (350 each), so a page of
 * comments lists 500 replies and cuts both A and B. One of B's replies is hidden by a moderator
 * with two replies of its own, which nobody else reads; B's replies reply to each other too.
 */
function threads() {
  let ms = 0;
  const at = () => new Date(start + ms++).toISOString();
  const row = (parent: string | null, hidden = 0): Row => ({ id: newId(), parent_id: parent, created_at: at(), hidden, reply_count: 0 });
  const [a, b, c] = [row(null), row(null), row(null)];
  const rows: Row[] = [a, b, c];
  const add = (r: Row) => {
    rows.push(r);
    const parent = rows.find((p) => p.id === r.parent_id);
    if (parent && !r.hidden) parent.reply_count++;
    return r;
  };
  for (let i = 0; i < 5; i++) add(row(c.id));
  const bReplies: Row[] = [];
  let hidden: Row | undefined;
  for (let i = 0; i < 350; i++) {
    add(row(a.id));
    if (i === 100) {
      hidden = add(row(b.id, 1));
      add(row(hidden.id));
      add(row(hidden.id));
    }
    const parent = i % 3 === 2 ? bReplies[bReplies.length - 1]!.id : b.id;
    bReplies.push(add(row(parent)));
  }
  return { rows, a, b, c, hidden: hidden! };
}

/** Every reply below `root` a visitor may read, oldest first. */
function readableBelow(rows: Row[], root: string): string[] {
  const below = new Set([root]);
  const out: string[] = [];
  for (const r of rows) {
    if (r.parent_id && below.has(r.parent_id) && !r.hidden) {
      below.add(r.id);
      out.push(r.id);
    }
  }
  return out;
}

interface ApiComment {
  _id: string;
  parentComment: string | null;
  replies: ApiComment[];
}
const flatten = (comments: ApiComment[]): ApiComment[] => comments.flatMap((c) => [c, ...flatten(c.replies)]);

describe('a page of comments whose threads hold more replies than it lists', () => {
  it('names the threads it cut short, and each reads on to its last reply, once each, in order', async () => {
    const blog = await createBlog(t, author);
    const { rows, a, b, c } = threads();
    await seed(blog._id, rows);

    for (const token of [undefined, undefined, someone.token]) {
      // Twice as a visitor (the second from the response cache), then signed in.
      const res = await get(`/blogs/${blog.blogId}/comments`, token);
      expect(res.statusCode).toBe(200);
      const page = res.json();
      expect(page.truncated).toBe(true);
      expect(Object.keys(page.replyCursors).sort()).toEqual([a.id, b.id].sort());
      expect(flatten(page.comments).length - 3).toBe(MAX_REPLIES_PER_PAGE);
      const listed = (root: string) => flatten(page.comments.find((x: ApiComment) => x._id === root).replies).map((r) => r._id);
      expect(listed(c.id)).toEqual(readableBelow(rows, c.id));

      for (const root of [a, b]) {
        const seen = listed(root.id);
        let cursor: string | null = page.replyCursors[root.id];
        let calls = 0;
        while (cursor) {
          const more = await get(`/blogs/${blog.blogId}/comments/${root.id}/replies?cursor=${encodeURIComponent(cursor)}`, token);
          expect(more.statusCode).toBe(200);
          const body = more.json();
          for (const reply of body.replies as ApiComment[]) {
            // Flat, oldest first, each under a reply already read.
            expect(reply.replies).toEqual([]);
            expect(reply.parentComment === root.id || seen.includes(reply.parentComment!)).toBe(true);
            seen.push(reply._id);
          }
          cursor = body.nextCursor;
          calls++;
        }
        expect(calls).toBe(1);
        expect(seen).toEqual(readableBelow(rows, root.id));
      }
    }
  });

  it('shares the page between threads: a long oldest thread leaves the small ones whole', async () => {
    // Before: replies were cut oldest first across the page, so a long thread older than every
    // other reply took the whole page and the other threads showed none of theirs.
    const blog = await createBlog(t, author);
    let ms = 0;
    const row = (parent: string | null): Row => ({
      id: newId(),
      parent_id: parent,
      created_at: new Date(start + ms++).toISOString(),
      hidden: 0,
      reply_count: 0,
    });
    const [long, small, quiet] = [row(null), row(null), row(null)];
    const rows: Row[] = [long, small, quiet];
    for (let i = 0; i < 600; i++) rows.push(row(long.id));
    for (let i = 0; i < 3; i++) rows.push(row(small.id));
    rows.push(row(quiet.id));
    long.reply_count = 600;
    small.reply_count = 3;
    quiet.reply_count = 1;
    await seed(blog._id, rows);

    const page = (await get(`/blogs/${blog.blogId}/comments`)).json();
    const listed = (root: Row) => flatten(page.comments.find((x: ApiComment) => x._id === root.id).replies).map((r) => r._id);
    expect(listed(small)).toEqual(readableBelow(rows, small.id));
    expect(listed(quiet)).toEqual(readableBelow(rows, quiet.id));
    const longShown = MAX_REPLIES_PER_PAGE - 4;
    expect(listed(long)).toEqual(readableBelow(rows, long.id).slice(0, longShown));
    expect(page.truncated).toBe(true);
    expect(Object.keys(page.replyCursors)).toEqual([long.id]);
    const more = (await get(`/blogs/${blog.blogId}/comments/${long.id}/replies?cursor=${page.replyCursors[long.id]}`)).json();
    expect(more.replies.map((r: ApiComment) => r._id)).toEqual(readableBelow(rows, long.id).slice(longShown));
    expect(more.nextCursor).toBeNull();
  });

  it("lists a reply dated before its parent (another instance's clock) under that parent", async () => {
    const blog = await createBlog(t, author);
    const at = (ms: number) => new Date(start + ms).toISOString();
    const top: Row = { id: newId(), parent_id: null, created_at: at(0), hidden: 0, reply_count: 1 };
    const parent: Row = { id: newId(), parent_id: top.id, created_at: at(20), hidden: 0, reply_count: 1 };
    const early: Row = { id: newId(), parent_id: parent.id, created_at: at(10), hidden: 0, reply_count: 0 };
    await seed(blog._id, [top, parent, early]);
    const page = (await get(`/blogs/${blog.blogId}/comments`)).json();
    expect(page.comments[0].replies[0]._id).toBe(parent.id);
    expect(page.comments[0].replies[0].replies.map((r: ApiComment) => r._id)).toEqual([early.id]);
  });

  it('keeps a reply dated before its parent with that parent when a cut falls between their dates', async () => {
    // Before: ordered by time alone, the early reply fell on the page without its parent (dropped
    // there), and the thread's cursor, already past it, never read it again.
    const blog = await createBlog(t, author);
    const at = (ms: number) => new Date(start + ms).toISOString();
    const top: Row = { id: newId(), parent_id: null, created_at: at(0), hidden: 0, reply_count: 600 };
    const rows: Row[] = [top];
    for (let i = 0; i < 600; i++) rows.push({ id: newId(), parent_id: top.id, created_at: at(10 + i), hidden: 0, reply_count: 0 });
    const lateParent = rows[600]!;
    lateParent.reply_count = 1;
    const early: Row = { id: newId(), parent_id: lateParent.id, created_at: at(5), hidden: 0, reply_count: 0 };
    await seed(blog._id, [...rows, early]);

    for (const token of [undefined, someone.token]) {
      const page = (await get(`/blogs/${blog.blogId}/comments`, token)).json();
      const onPage = flatten(page.comments[0].replies).map((r) => r._id);
      expect(onPage).toHaveLength(MAX_REPLIES_PER_PAGE);
      expect(onPage).not.toContain(early.id);
      const more = (await get(`/blogs/${blog.blogId}/comments/${top.id}/replies?cursor=${page.replyCursors[top.id]}`, token)).json();
      const read = more.replies.map((r: ApiComment) => r._id);
      // The rest of the thread, the early reply right after its parent.
      expect(read.slice(-2)).toEqual([lateParent.id, early.id]);
      expect(new Set([...onPage, ...read]).size).toBe(601);
      expect(more.nextCursor).toBeNull();
    }
    // The whole thread through the replies route alone, 500 at a time: the same order.
    const first = (await get(`/blogs/${blog.blogId}/comments/${top.id}/replies`)).json();
    const second = (await get(`/blogs/${blog.blogId}/comments/${top.id}/replies?cursor=${first.nextCursor}`)).json();
    expect([...first.replies, ...second.replies].map((r: ApiComment) => r._id).slice(-2)).toEqual([lateParent.id, early.id]);
  });

  it('reads a whole thread from its first reply, 500 at a time', async () => {
    const blog = await createBlog(t, author);
    const { rows, b } = threads();
    await seed(blog._id, rows);
    const expected = readableBelow(rows, b.id);
    const seen: string[] = [];
    let url = `/blogs/${blog.blogId}/comments/${b.id}/replies`;
    for (let calls = 0; calls < 3; calls++) {
      const body = (await get(url)).json();
      seen.push(...body.replies.map((r: ApiComment) => r._id));
      if (!body.nextCursor) break;
      expect(body.replies).toHaveLength(MAX_REPLIES_PER_PAGE);
      url = `/blogs/${blog.blogId}/comments/${b.id}/replies?cursor=${body.nextCursor}`;
    }
    expect(seen).toEqual(expected);
  });

  it('says nothing was cut when all replies fit, and answers 400 or 404 to a bad request', async () => {
    const blog = await createBlog(t, author);
    const other = await createBlog(t, author);
    const { rows, c, hidden } = threads();
    await seed(blog._id, rows.slice(0, 10)); // the three comments and C's replies
    const page = (await get(`/blogs/${blog.blogId}/comments`)).json();
    expect(page).toMatchObject({ truncated: false, replyCursors: {} });

    const id = newId();
    const bad = [
      'nope',
      ...[
        ['x', 'y'],
        [1, 2],
        // Dates V8 takes and PostgreSQL refuses (a 500 there), an offset and an uppercase id SQLite compares as text.
        ['2024-02-30T00:00:00.000Z', id],
        ['0000-01-01T00:00:00.000Z', id],
        ['2026-01-01T01:00:00.000+01:00', id],
        ['2026-01-01T00:00:00.000Z', id.toUpperCase()],
        // A reply's place: its thread time, depth (1 or more) and id.
        ['2026-01-01T00:00:00.000Z', '0', id],
        ['2026-01-01T00:00:00.000Z', '01', id],
        ['2026-01-01T00:00:00.000Z', 'x', id],
        ['2024-02-30T00:00:00.000Z', '1', id],
        ['2026-01-01T00:00:00.000Z', '1', id, id],
      ].map((parts) => Buffer.from(JSON.stringify(parts)).toString('base64url')),
    ];
    for (const cursor of bad) {
      const res = await get(`/blogs/${blog.blogId}/comments/${c.id}/replies?cursor=${cursor}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Invalid cursor');
    }
    // A cursor written before replies were ordered with their depth (created_at, id) still reads on.
    const replies = rows.slice(3, 8); // C's five
    const legacy = Buffer.from(JSON.stringify([replies[1]!.created_at, replies[1]!.id])).toString('base64url');
    const after = await get(`/blogs/${blog.blogId}/comments/${c.id}/replies?cursor=${legacy}`);
    expect(after.statusCode).toBe(200);
    expect(after.json().replies.map((r: ApiComment) => r._id)).toEqual(replies.slice(2).map((r) => r.id));

    // A comment of another post, an unknown one, a malformed id.
    expect((await get(`/blogs/${other.blogId}/comments/${c.id}/replies`)).statusCode).toBe(404);
    expect((await get(`/blogs/${blog.blogId}/comments/${newId()}/replies`)).statusCode).toBe(404);
    expect((await get(`/blogs/${blog.blogId}/comments/not-an-id/replies`)).statusCode).toBe(400);

    // A hidden comment's replies are read by nobody but its author.
    await seed(
      blog._id,
      rows
        .filter((r) => r.id === hidden.id || r.parent_id === hidden.id)
        .map((r) => ({ ...r, parent_id: r.id === hidden.id ? c.id : r.parent_id })),
    );
    expect((await get(`/blogs/${blog.blogId}/comments/${hidden.id}/replies`)).statusCode).toBe(404);
    expect((await get(`/blogs/${blog.blogId}/comments/${hidden.id}/replies`, author.token)).statusCode).toBe(404);
    const own = await get(`/blogs/${blog.blogId}/comments/${hidden.id}/replies`, reader.token);
    expect(own.statusCode).toBe(200);
    expect(own.json().replies).toHaveLength(2);

    // A draft's comments are its author's only.
    await t.app.inject({ method: 'PATCH', url: `/api/v1/blogs/${blog.blogId}`, headers: bearer(author.token), payload: { draft: true } });
    expect((await get(`/blogs/${blog.blogId}/comments/${c.id}/replies`)).statusCode).toBe(404);
  });
});
