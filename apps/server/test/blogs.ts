import type { TestApp, TestUser } from './helpers';
import { bearer } from './helpers';

/** One block of every type the editor offers, as Editor.js saves them. */
export function everyBlock() {
  return [
    { id: 'h1', type: 'header', data: { text: 'Setting up <b>Kysely</b>', level: 2 } },
    {
      id: 'p1',
      type: 'paragraph',
      data: {
        text: 'Kysely is a <i>type-safe</i> <mark class="cdx-marker">query builder</mark> with <a href="https://kysely.dev">docs</a> and <code class="inline-code">sql</code>.',
      },
      tunes: { textVariant: 'call-out' },
    },
    {
      id: 'l1',
      type: 'list',
      data: {
        style: 'ordered',
        items: [
          { content: 'Install', items: [{ content: 'npm i kysely', items: [] }] },
          { content: 'Configure', items: [] },
        ],
      },
    },
    { id: 'c1', type: 'code', data: { code: 'const db = new Kysely<DB>({ dialect });', language: 'typescript' } },
    { id: 'q1', type: 'quote', data: { text: 'Types all the way down', caption: 'Someone', alignment: 'left' } },
    { id: 'd1', type: 'delimiter', data: {} },
    {
      id: 't1',
      type: 'table',
      data: {
        withHeadings: true,
        content: [
          ['Engine', 'Dialect'],
          ['SQLite', 'SqliteDialect'],
        ],
      },
    },
    {
      id: 'e1',
      type: 'embed',
      data: {
        service: 'youtube',
        source: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
        embed: 'https://evil.example/x',
        width: 580,
        height: 320,
        caption: 'A video',
      },
    },
    {
      id: 'i1',
      type: 'image',
      data: {
        file: { url: 'https://images.example.com/a.png' },
        caption: 'An <i>image</i>',
        withBorder: true,
        withBackground: false,
        stretched: false,
      },
    },
  ];
}

export async function createBlog(t: TestApp, user: TestUser, fields: Record<string, unknown> = {}) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/blogs',
    headers: bearer(user.token),
    payload: {
      title: 'A post about Kysely',
      description: 'How to use it',
      tags: ['kysely', 'sql'],
      content: { blocks: everyBlock() },
      draft: false,
      ...fields,
    },
  });
  if (res.statusCode !== 201) throw new Error(`create failed ${res.statusCode}: ${res.body}`);
  return res.json().blog as { _id: string; blogId: string; title: string };
}

/** A comment on the blog (or, with `parentId`, a reply): the comment as the API answered it. */
export async function postComment(t: TestApp, user: TestUser, blogId: string, text: string, parentId?: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: parentId ? `/api/v1/comment/${parentId}/${blogId}` : `/api/v1/blogs/comment/${blogId}`,
    headers: bearer(user.token),
    payload: parentId ? { reply: text } : { comment: text },
  });
  if (res.statusCode !== 201) throw new Error(`comment failed ${res.statusCode}: ${res.body}`);
  return (res.json().newComment ?? res.json().newReply) as { _id: string; comment: string };
}

/** A reader's report of a post (POST /reports), failing the test unless it is accepted. */
export async function reportPost(t: TestApp, user: TestUser, blogId: string, reason: 'spam' | 'harassment' | 'illegal') {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/reports',
    headers: bearer(user.token),
    payload: { targetType: 'post', targetId: blogId, reason },
  });
  if (res.statusCode !== 201) throw new Error(`report failed ${res.statusCode}: ${res.body}`);
}

export async function countRows(
  t: TestApp,
  table: 'blogs' | 'likes' | 'saves' | 'comments' | 'comment_likes' | 'notifications' | 'blog_tags' | 'uploads',
  where?: [string, string],
) {
  let q = t.database.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n'));
  if (where) q = q.where(where[0] as never, '=', where[1] as never);
  return Number((await q.executeTakeFirstOrThrow()).n);
}
