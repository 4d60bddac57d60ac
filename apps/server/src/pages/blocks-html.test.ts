import { MAX_LIST_DEPTH } from '@inkwell/core';
import { Parser } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { xssCorpus } from '../../test/xss-corpus';
import { MAX_LIST_ITEMS, renderBlocksHtml } from './blocks-html';

interface Element {
  name: string;
  attribs: Record<string, string>;
  depth: number;
}

/** Every element as a browser-grade parser sees it (entities in attributes decoded). */
function parse(html: string): { elements: Element[]; text: string } {
  const elements: Element[] = [];
  let depth = 0;
  let text = '';
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        elements.push({ name, attribs, depth: ++depth });
      },
      onclosetag() {
        depth--;
      },
      ontext(t) {
        text += t;
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return { elements, text };
}

const ALLOWED_ELEMENTS = new Set([
  ...['h2', 'h3', 'h4', 'p', 'ul', 'ol', 'li', 'figure', 'figcaption', 'img', 'pre', 'code', 'blockquote', 'cite'],
  ...['table', 'thead', 'tbody', 'tr', 'th', 'td', 'hr', 'aside', 'div', 'small'],
  ...['b', 'i', 'u', 'mark', 'a', 'br', 'span'],
]);
const ALLOWED_ATTRIBUTES = new Set(['href', 'target', 'rel', 'class', 'src', 'alt', 'loading', 'decoding']);

function assertSafe(html: string, context: string) {
  for (const el of parse(html).elements) {
    expect(ALLOWED_ELEMENTS, `${context}: <${el.name}> in ${html}`).toContain(el.name);
    for (const [attr, value] of Object.entries(el.attribs)) {
      expect(ALLOWED_ATTRIBUTES, `${context}: ${attr} in ${html}`).toContain(attr);
      expect(attr.startsWith('on'), context).toBe(false);
      if (attr === 'href' || attr === 'src') {
        // biome-ignore lint/suspicious/noControlCharactersInRegex: browsers ignore these before a scheme.
        const scheme = value.replace(/[\u0000-\u0020]/g, '').toLowerCase();
        expect(scheme, `${context}: ${attr}=${value}`).toMatch(/^(https?:\/\/|mailto:|\/|#)/);
        expect(scheme).not.toMatch(/^(javascript|data|vbscript):/);
      }
    }
  }
}

/** Every field of every block type carrying the payload, as if a stored row had never been cleaned. */
function hostileContent(payload: string) {
  const attr = payload.replace(/"/g, '&quot;');
  return {
    blocks: [
      { type: 'paragraph', data: { text: payload } },
      { type: 'paragraph', data: { text: `<a href="${attr}">link</a>` } },
      { type: 'header', data: { text: payload, level: payload } },
      { type: 'list', data: { style: payload, items: [payload, { content: payload, items: [{ content: payload, items: [] }] }] } },
      { type: 'list', data: { style: 'checklist', items: [{ content: payload, meta: { checked: true }, items: [] }] } },
      { type: 'image', data: { file: { url: payload }, caption: payload } },
      { type: 'image', data: { file: { url: 'https://img.example/a.png' }, caption: payload } },
      { type: 'embed', data: { service: payload, source: payload, embed: payload, caption: payload } },
      { type: 'code', data: { code: payload, language: payload } },
      { type: 'quote', data: { text: payload, caption: payload } },
      { type: 'table', data: { withHeadings: true, content: [[payload, payload], [payload]] } },
      { type: payload, data: { text: payload } },
      { type: 'paragraph', data: { text: payload }, tunes: { textVariant: payload } },
      { type: 'quote', data: { text: payload }, tunes: { textVariant: 'call-out' } },
    ],
  };
}

describe('renderBlocksHtml', () => {
  it('renders every block type as semantic HTML', () => {
    const html = renderBlocksHtml({
      blocks: [
        { type: 'header', data: { text: 'Intro <i>here</i>', level: 2 } },
        { type: 'header', data: { text: 'Sub', level: 4 } },
        { type: 'paragraph', data: { text: 'A <mark class="cdx-marker">mark</mark>, <u>u</u>, <code class="inline-code">x</code>' } },
        { type: 'list', data: { style: 'ordered', items: [{ content: 'one', items: [{ content: 'one.a', items: [] }] }, 'two'] } },
        { type: 'image', data: { file: { url: '/uploads/a/b.webp' }, caption: 'A <b>cat</b>' } },
        { type: 'embed', data: { service: 'youtube', source: 'https://youtu.be/dQw4w9WgXcQ', embed: 'x', caption: 'Video' } },
        { type: 'code', data: { code: 'if (a < b) { x = "&"; }', language: 'TypeScript' } },
        { type: 'quote', data: { text: 'Said', caption: 'Someone' } },
        { type: 'delimiter', data: {} },
        {
          type: 'table',
          data: {
            withHeadings: true,
            content: [
              ['H1', 'H2'],
              ['a', 'b'],
            ],
          },
        },
        { type: 'paragraph', data: { text: 'Boxed' }, tunes: { textVariant: 'call-out' } },
      ],
    });
    expect(html).toContain('<h2>Intro <i>here</i></h2>');
    expect(html).toContain('<h4>Sub</h4>');
    expect(html).toContain('<mark class="cdx-marker">mark</mark>');
    expect(html).toContain('<code class="inline-code">x</code>');
    expect(html).toContain('<ol><li>one<ol><li>one.a</li></ol></li><li>two</li></ol>');
    expect(html).toContain(
      '<figure><img src="/uploads/a/b.webp" alt="A cat" loading="lazy" decoding="async"><figcaption>A <b>cat</b></figcaption></figure>',
    );
    expect(html).toContain(
      '<a href="https://youtu.be/dQw4w9WgXcQ" rel="noopener noreferrer nofollow ugc">Youtube: https://youtu.be/dQw4w9WgXcQ</a>',
    );
    expect(html).not.toContain('<iframe');
    expect(html).toContain('<pre><code class="language-typescript">if (a &lt; b) { x = &quot;&amp;&quot;; }</code></pre>');
    expect(html).toContain('<figure><blockquote><p>Said</p></blockquote><figcaption>— <cite>Someone</cite></figcaption></figure>');
    expect(html).toContain('<hr>');
    expect(html).toContain('<table><thead><tr><th>H1</th><th>H2</th></tr></thead><tbody><tr><td>a</td><td>b</td></tr></tbody></table>');
    expect(html).toContain('<aside class="call-out"><p>Boxed</p></aside>');
    assertSafe(html, 'all blocks');
  });

  it('reads content stored as a JSON string and ignores what is not content', () => {
    expect(renderBlocksHtml(JSON.stringify({ blocks: [{ type: 'paragraph', data: { text: 'hi' } }] }))).toBe('<p>hi</p>');
    for (const junk of [null, undefined, 'not json', 42, { blocks: 'x' }, { blocks: [null, 1, { type: 'paragraph' }] }]) {
      expect(renderBlocksHtml(junk)).toBe('');
    }
  });

  it('makes root-relative links and uploaded images absolute when given a base URL', () => {
    const html = renderBlocksHtml(
      {
        blocks: [
          {
            type: 'paragraph',
            data: { text: '<a href="/blog/1">in</a> <a href="//cdn.example/x">proto</a> <a href="https://o.example/">out</a>' },
          },
          { type: 'image', data: { file: { url: '/uploads/x.webp' }, caption: '' } },
        ],
      },
      { baseUrl: 'https://blog.example/' },
    );
    expect(html).toContain('href="https://blog.example/blog/1"');
    expect(html).toContain('href="//cdn.example/x"');
    expect(html).toContain('href="https://o.example/"');
    expect(html).toContain('src="https://blog.example/uploads/x.webp"');
  });

  it('walks deep lists without recursion and cuts them at the depth and item limits', () => {
    const root = { content: 'level 1', items: [] as unknown[] };
    let node = root;
    for (let i = 2; i <= 200_000; i++) {
      const child = { content: `level ${i}`, items: [] as unknown[] };
      node.items.push(child);
      node = child;
    }
    const html = renderBlocksHtml({ blocks: [{ type: 'list', data: { style: 'unordered', items: [root] } }] });
    const lists = parse(html).elements.filter((e) => e.name === 'ul');
    expect(lists).toHaveLength(MAX_LIST_DEPTH);
    expect(html).toContain(`level ${MAX_LIST_DEPTH}<`);
    expect(html).not.toContain(`level ${MAX_LIST_DEPTH + 1}<`);

    const wide = Array.from({ length: 50 }, () => ({ content: 'x', items: Array.from({ length: 500 }, () => 'y') }));
    const many = renderBlocksHtml({
      blocks: [
        { type: 'list', data: { items: wide } },
        { type: 'list', data: { items: wide } },
      ],
    });
    expect(parse(many).elements.filter((e) => e.name === 'li')).toHaveLength(MAX_LIST_ITEMS);
    // Every opened list and item is closed even when the budget runs out mid-list.
    expect(many.match(/<ul>/g)?.length).toBe(many.match(/<\/ul>/g)?.length);
    expect(many.match(/<li>/g)?.length).toBe(many.match(/<\/li>/g)?.length);
  });

  const corpus = xssCorpus();
  it(`renders all ${corpus.length} XSS payloads in every field without script, handlers or script URLs`, () => {
    expect(corpus.length).toBeGreaterThan(100);
    for (const payload of corpus) {
      const html = renderBlocksHtml(hostileContent(payload), { baseUrl: 'https://blog.example' });
      assertSafe(html, payload);
      expect(html.toLowerCase(), payload).not.toMatch(/<script|<iframe|<svg|<style|<object|<embed[\s>]/);
    }
  });
});
