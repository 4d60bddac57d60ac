import { NUL_MESSAGE, PUBLISH_MESSAGES, UNPAIRED_SURROGATE_MESSAGE } from '@inkwell/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, createBlog } from '../../test/blogs';
import { bearer, createTestApp, createUser, type TestApp, type TestUser } from '../../test/helpers';
import { multipartBody } from '../../test/multipart';

let t: TestApp;
let author: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  author = await createUser(t, { name: 'Nia Nul' });
});
afterAll(async () => t.close());

const paragraph = { type: 'paragraph', data: { text: 'Body text' } };
const postBlog = (payload: Record<string, unknown>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/blogs',
    headers: bearer(author.token),
    payload: { title: 'A title', description: 'A description', content: { blocks: [paragraph] }, ...payload },
  });

function expect400(res: { statusCode: number; json: () => { success: boolean; message: string } }, message: string) {
  expect(res.statusCode).toBe(400);
  expect(res.json().success).toBe(false);
  expect(res.json().message).toContain(message);
}

describe('NUL characters (PostgreSQL text cannot hold them) are refused with 400 everywhere', () => {
  it('in a title, a comment, a name, a block text and a multipart field', async () => {
    const blogs = await countRows(t, 'blogs');
    expect400(await postBlog({ title: 'Hello\u0000world' }), NUL_MESSAGE);
    expect400(await postBlog({ content: { blocks: [{ type: 'paragraph', data: { text: 'a\u0000b' } }] } }), NUL_MESSAGE);
    const multipart = multipartBody({
      title: 'T',
      description: 'd',
      content: { blocks: [{ type: 'paragraph', data: { text: 'a\u0000b' } }] },
    });
    const viaForm = await t.app.inject({
      method: 'POST',
      url: '/api/v1/blogs',
      payload: multipart.payload,
      headers: { ...multipart.headers, ...bearer(author.token) },
    });
    expect400(viaForm, NUL_MESSAGE);
    const titleForm = multipartBody({ title: 'T\u0000', description: 'd', content: { blocks: [paragraph] } });
    expect400(
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/blogs',
        payload: titleForm.payload,
        headers: { ...titleForm.headers, ...bearer(author.token) },
      }),
      NUL_MESSAGE,
    );
    expect(await countRows(t, 'blogs')).toBe(blogs);

    const { blogId } = await createBlog(t, author);
    const comment = await t.app.inject({
      method: 'POST',
      url: `/api/v1/blogs/comment/${blogId}`,
      headers: bearer(author.token),
      payload: { comment: 'nice\u0000' },
    });
    expect400(comment, NUL_MESSAGE);
    const name = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/users/${author.id}`,
      headers: bearer(author.token),
      payload: { name: 'Nia\u0000' },
    });
    expect400(name, NUL_MESSAGE);
    const signup = await t.app.inject({
      method: 'POST',
      url: '/api/v1/signup',
      payload: { name: '\u0000', email: 'nul@example.com', password: 'secret123' },
    });
    expect400(signup, NUL_MESSAGE);
  });

  it('in ?tag=, ?search=, /users/{name} and /blogs/{id}', async () => {
    for (const url of ['/api/v1/blogs?tag=a%00b', '/api/v1/search-blogs?search=a%00', '/api/v1/users/ab%00c', '/api/v1/blogs/x%00y']) {
      expect400(await t.app.inject({ url }), NUL_MESSAGE);
    }
  });
});

describe('nesting deeper than any payload needs', () => {
  /** Built as text: JSON.stringify itself overflows the stack at this depth. */
  const deepListJson = (depth: number) =>
    `{"blocks":[{"type":"list","data":{"style":"unordered","items":[${'{"content":"x","items":['.repeat(depth)}${']}'.repeat(depth)}]}}]}`;
  const postJson = (body: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/blogs',
      headers: { ...bearer(author.token), 'content-type': 'application/json' },
      payload: body,
    });
  const blogBody = (content: string) => `{"title":"Deep","description":"d","content":${content}}`;

  it('a list nested 3,000 levels deep is a 400, as JSON and as a multipart field', async () => {
    const blogs = await countRows(t, 'blogs');
    expect400(await postJson(blogBody(deepListJson(3000))), 'nested too deeply');
    const form = multipartBody({ title: 'Deep', description: 'd', content: deepListJson(3000) });
    expect400(
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/blogs',
        payload: form.payload,
        headers: { ...form.headers, ...bearer(author.token) },
      }),
      'Lists can nest at most 6 levels',
    );
    // Just past the limit, inside the JSON depth budget: the list rule speaks.
    expect400(await postJson(blogBody(deepListJson(7))), 'Lists can nest at most 6 levels');
    expect((await postJson(blogBody(deepListJson(6)))).statusCode).toBe(201);
    expect(await countRows(t, 'blogs')).toBe(blogs + 1);
  });

  it('any other deeply nested body is a 400 too', async () => {
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/signin',
      headers: { 'content-type': 'application/json' },
      payload: `{"email":"a@b.co","password":${deep}}`,
    });
    expect400(res, 'nested too deeply');
  });
});

describe('invisible text', () => {
  const invisible = [
    '\u200B\u200B',
    '\u3164',
    ' \u200D\u2060 ',
    '\u202E\u202C',
    '\uFEFF',
    // Format controls that draw nothing, and marks that need a character before them.
    '\u206A\u206F',
    '\u{E0001}\u{E0020}\u{E007F}',
    '\u{1D173}\u{1D17A}',
    '\u180B\u180D',
    '\u17B4\u17B5',
    '\u{1BCA0}\u{1BCA3}',
  ];

  it('refuses titles, names and comments made only of invisible characters', async () => {
    const { blogId } = await createBlog(t, author);
    for (const text of invisible) {
      expect400(await postBlog({ title: text }), 'Title is required');
      const name = await t.app.inject({
        method: 'PATCH',
        url: `/api/v1/users/${author.id}`,
        headers: bearer(author.token),
        payload: { name: text },
      });
      expect400(name, 'Name is required');
      const comment = await t.app.inject({
        method: 'POST',
        url: `/api/v1/blogs/comment/${blogId}`,
        headers: bearer(author.token),
        payload: { comment: text },
      });
      expect400(comment, 'Comment cannot be empty');
    }
    const signup = await t.app.inject({
      method: 'POST',
      url: '/api/v1/signup',
      payload: { name: '\u200B', email: 'zw@example.com', password: 'secret123' },
    });
    expect400(signup, 'Name is required');
  });

  it('refuses a series title of invisible characters and drops a tag of blank fillers', async () => {
    for (const title of ['\u200B', '\u202E', '\u3164', '\u206A']) {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/series', headers: bearer(author.token), payload: { title } });
      expect400(res, 'Title is required');
    }
    const res = await postBlog({ title: 'Tagged', tags: ['\u3164', '\u115F', 'real\u200B'] });
    expect(res.statusCode).toBe(201);
    expect(res.json().blog.tags).toEqual(['real']);
  });

  it('keeps the marks that belong inside text: the flag of England, a Mongolian variation selector', async () => {
    const england = '\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}';
    const res = await postBlog({ title: `Go ${england}`, description: 'A\u1820\u180B b' });
    expect(res.statusCode).toBe(201);
    expect(res.json().blog.title).toBe(`Go ${england}`);
    expect(res.json().blog.description).toBe('A\u1820\u180B b');
  });

  it('stores names, usernames, titles and comments normalized (NFC, trimmed, no zero-width or bidi controls)', async () => {
    const res = await postBlog({ title: '\u200BCafe\u0301 \u202Eguide\u200B\u3164' });
    expect(res.statusCode).toBe(201);
    expect(res.json().blog.title).toBe('Café guide');
    const profile = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/users/${author.id}`,
      headers: bearer(author.token),
      payload: { name: 'Nia\u200B\u200F', username: `\u200Bnia_${Date.now() % 100000}\u200B` },
    });
    expect(profile.statusCode).toBe(200);
    expect(profile.json().user.name).toBe('Nia');
    expect(profile.json().user.username).toMatch(/^nia_\d+$/);
    const comment = await t.app.inject({
      method: 'POST',
      url: `/api/v1/blogs/comment/${res.json().blog.blogId}`,
      headers: bearer(author.token),
      payload: { comment: 'Great post!\u200B\u2066' },
    });
    expect(comment.statusCode).toBe(201);
    expect(comment.json().newComment.comment).toBe('Great post!');
  });
});

describe('publishing needs a description and a block that shows something', () => {
  it('refuses to publish a title-only post and says what is missing; a draft may be empty', async () => {
    const blogs = await countRows(t, 'blogs');
    const bare = await postBlog({ description: '', content: { blocks: [] } });
    expect400(bare, PUBLISH_MESSAGES.needsDescription);
    expect(bare.json().message).toContain(PUBLISH_MESSAGES.needsContent);
    expect400(await postBlog({ description: '\u200B ' }), PUBLISH_MESSAGES.needsDescription);
    const emptyBlocks = [
      { type: 'paragraph', data: { text: '<b> </b>\u200B' } },
      { type: 'delimiter', data: {} },
      { type: 'list', data: { style: 'unordered', items: [{ content: ' ', items: [] }] } },
      { type: 'table', data: { content: [['', ' ']] } },
    ];
    expect400(await postBlog({ content: { blocks: emptyBlocks } }), PUBLISH_MESSAGES.needsContent);
    expect(await countRows(t, 'blogs')).toBe(blogs);

    const draft = await postBlog({ description: '', content: { blocks: [] }, draft: true });
    expect(draft.statusCode).toBe(201);
    const { blogId } = draft.json().blog;
    const publish = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/blogs/${blogId}`,
      headers: bearer(author.token),
      payload: { title: 'A title', description: '', content: { blocks: [] }, draft: false },
    });
    expect400(publish, PUBLISH_MESSAGES.needsDescription);
    const page = await t.app.inject({ url: `/api/v1/blogs/${blogId}`, headers: bearer(author.token) });
    expect(page.json().blog.draft).toBe(true);
    const image = [{ type: 'image', data: { file: { url: 'https://images.example.com/a.png' }, caption: '' } }];
    expect((await postBlog({ content: { blocks: image } })).statusCode).toBe(201);
  });
});

describe('unpaired surrogates (not characters: SQLite kept them as invalid UTF-8) are refused with 400', () => {
  it('in a title, a block text, a multipart content field and a comment; paired ones (emoji) pass', async () => {
    const blogs = await countRows(t, 'blogs');
    expect400(await postBlog({ title: 'x\ud800y' }), UNPAIRED_SURROGATE_MESSAGE);
    expect400(
      await postBlog({ content: { blocks: [{ type: 'paragraph', data: { text: 'lone \udfff low' } }] } }),
      UNPAIRED_SURROGATE_MESSAGE,
    );
    // Sent as text in a form field, the escape reaches the server as six letters and is parsed there.
    const multipart = multipartBody({
      title: 'T',
      description: 'd',
      content: '{"blocks":[{"type":"paragraph","data":{"text":"a\\ud800b"}}]}',
    });
    const viaForm = await t.app.inject({
      method: 'POST',
      url: '/api/v1/blogs',
      headers: { ...multipart.headers, ...bearer(author.token) },
      payload: multipart.payload,
    });
    expect400(viaForm, UNPAIRED_SURROGATE_MESSAGE);
    expect(await countRows(t, 'blogs')).toBe(blogs);
    const { blogId } = await createBlog(t, author);
    const comment = await t.app.inject({
      method: 'POST',
      url: `/api/v1/blogs/comment/${blogId}`,
      headers: bearer(author.token),
      payload: { comment: 'half an emoji \ud83d' },
    });
    expect400(comment, UNPAIRED_SURROGATE_MESSAGE);
    expect((await postBlog({ title: 'Whole emoji \ud83d\ude00 pass' })).statusCode).toBe(201);
  });
});
