import { normalizeText } from '@inkwell/core';
import { Parser } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createUser, type TestApp, type TestUser } from '../../../test/helpers';
import { xssCorpus } from '../../../test/xss-corpus';

const corpus = xssCorpus();

let t: TestApp;
let author: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  author = await createUser(t);
});
afterAll(async () => t.close());

/** Parses stored inline HTML as a browser would and checks every element and attribute against the allowlist. */
function assertSafeHtml(html: string) {
  const parser = new Parser({
    onopentag(name, attribs) {
      expect(['b', 'i', 'u', 'mark', 'a', 'code', 'br'], html).toContain(name);
      for (const [attr, value] of Object.entries(attribs)) {
        expect(['href', 'target', 'rel', 'class'], html).toContain(attr);
        if (attr === 'href') expect(value, html).toMatch(/^(https?:\/\/|mailto:|\/|#)/i);
      }
    },
  });
  parser.write(html);
  parser.end();
}

describe('the XSS corpus through the blogs API', () => {
  it(`stores all ${corpus.length} payloads only in a harmless form`, async () => {
    expect(corpus.length).toBeGreaterThan(100);
    for (const payload of corpus) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/blogs',
        headers: bearer(author.token),
        payload: {
          title: payload.slice(0, 200),
          description: payload.slice(0, 1000),
          tags: ['xss'],
          content: {
            blocks: [
              { type: 'paragraph', data: { text: payload } },
              { type: 'header', data: { text: `H ${payload}`, level: 2 } },
              {
                type: 'list',
                data: { style: 'unordered', items: [{ content: `L ${payload}`, items: [{ content: payload, items: [] }] }] },
              },
              { type: 'quote', data: { text: `Q ${payload}`, caption: payload } },
              { type: 'table', data: { content: [[payload, 'x']] } },
              { type: 'paragraph', data: { text: `<a href="${payload.replace(/"/g, '&quot;')}">link</a>` } },
              { type: 'image', data: { file: { url: 'https://images.example.com/a.png' }, caption: payload } },
            ],
          },
        },
      });
      expect(res.statusCode, payload).toBe(201);
      const blog = (await t.app.inject({ url: `/api/v1/blogs/${res.json().blog.blogId}` })).json().blog;
      for (const block of blog.content.blocks) {
        const texts = JSON.stringify(block.data).match(/"(?:text|content|caption)":"((?:[^"\\]|\\.)*)"/g) ?? [];
        for (const t of texts) assertSafeHtml(JSON.parse(`{${t}}`)[t.slice(1, t.indexOf('"', 1))] ?? '');
        if (block.type === 'table') for (const cell of block.data.content.flat()) assertSafeHtml(cell);
        if (block.type === 'list') for (const item of block.data.items) assertSafeHtml(item.content);
      }
      // Plain-text fields are kept verbatim (only normalized): the web renders them as text, never as HTML.
      expect(blog.title).toBe(normalizeText(payload.slice(0, 200)));
    }
  });

  it('refuses script URLs as images, links only keep safe schemes, and embeds only known services', async () => {
    for (const url of [
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox',
      '//evil.example/x.png/../..',
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/blogs',
        headers: bearer(author.token),
        payload: { title: 'img', content: { blocks: [{ type: 'image', data: { file: { url } } }] } },
      });
      expect(res.statusCode, url).toBe(400);
    }
    for (const source of [
      'javascript:alert(1)',
      'https://evil.example/watch?v=dQw4w9WgXcQ',
      'https://www.youtube.com.evil.example/watch?v=dQw4w9WgXcQ',
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/blogs',
        headers: bearer(author.token),
        payload: { title: 'embed', content: { blocks: [{ type: 'embed', data: { service: 'youtube', source, embed: source } }] } },
      });
      expect(res.statusCode, source).toBe(400);
    }
  });
});
