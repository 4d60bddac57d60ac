import { resolveEmbed } from '@inkwell/core';
import { describe, expect, it } from 'vitest';
import { cleanEditorOutput, contentForEditor, imagesOf, isBlankHtml, normalizeLinksInHtml, sendableText } from './content';
import { editorEmbedServices } from './tools/embedServices';

describe('editor output cleaning (SPEC.md 5, Editor)', () => {
  it('drops paragraphs and headings with empty trimmed text, images without a URL and empty code', () => {
    const out = cleanEditorOutput({
      time: 1,
      blocks: [
        { type: 'paragraph', data: { text: '  ' } },
        { type: 'paragraph', data: { text: '&nbsp;<br>' } },
        { type: 'paragraph', data: { text: 'Hello' } },
        { type: 'header', data: { text: '<b> </b>', level: 2 } },
        { type: 'image', data: { file: { url: '' }, caption: '' } },
        { type: 'code', data: { code: '\n', language: 'go' } },
        { type: 'delimiter', data: {} },
      ],
    });
    expect(out.blocks.map((b) => b.type)).toEqual(['paragraph', 'delimiter']);
  });

  it('takes NUL characters out of every text, which the server refuses in any request', () => {
    const out = cleanEditorOutput({
      blocks: [
        { type: 'paragraph', data: { text: 'a\u0000b' } },
        { type: 'list', data: { style: 'unordered', items: [{ content: 'x\u0000', items: [] }] } },
        { type: 'code', data: { code: 'let s = "\u0000";', language: 'js' } },
      ],
    });
    expect(JSON.stringify(out.blocks)).not.toContain('\\u0000');
    expect(out.blocks.map((b) => JSON.stringify(b.data))).toEqual([
      '{"text":"ab"}',
      '{"style":"unordered","items":[{"content":"x","items":[]}]}',
      '{"code":"let s = \\"\\";","language":"js"}',
    ]);
    expect(sendableText('Ti\u0000tle')).toBe('Title');
    // Half an emoji (a surrogate without its partner) would have the server refuse every save.
    expect(sendableText('cut \ud83d here')).toBe('cut \ufffd here');
    expect(sendableText('whole \ud83d\ude00')).toBe('whole \ud83d\ude00');
    const cut = cleanEditorOutput({ blocks: [{ id: 'c', type: 'paragraph', data: { text: 'a\udc00b' } }] });
    expect(cut.blocks.map((b) => JSON.stringify(b.data))).toEqual(['{"text":"a\ufffdb"}']);
  });

  it('keeps a non-empty text variant tune and leaves out an empty one', () => {
    const out = cleanEditorOutput({
      blocks: [
        { type: 'paragraph', data: { text: 'a' }, tunes: { textVariant: 'call-out' } },
        { type: 'paragraph', data: { text: 'b' }, tunes: { textVariant: '' } },
      ],
    });
    expect(out.blocks[0]?.tunes).toEqual({ textVariant: 'call-out' });
    expect(out.blocks[1]?.tunes).toBeUndefined();
  });

  it('applies the link rule to every link in text, lists, tables and captions', () => {
    expect(normalizeLinksInHtml('go <a href="example.com">here</a>')).toBe('go <a href="http://example.com">here</a>');
    expect(normalizeLinksInHtml('<a href="/about">a</a> <a href="#x">b</a> <a href="//cdn.io">c</a>')).toBe(
      '<a href="/about">a</a> <a href="#x">b</a> <a href="//cdn.io">c</a>',
    );
    expect(normalizeLinksInHtml('<a href="https://a.io/?q=1&amp;r=2" target="_blank">x</a>')).toBe(
      '<a href="https://a.io/?q=1&amp;r=2">x</a>',
    );
    expect(normalizeLinksInHtml('<a href="bad link">text</a>')).toBe('text');
    expect(normalizeLinksInHtml('<a href="">text</a>')).toBe('text');
    const out = cleanEditorOutput({
      blocks: [
        { type: 'list', data: { style: 'unordered', items: [{ content: '<a href="x.io">x</a>', items: [{ content: 'y', items: [] }] }] } },
        { type: 'table', data: { withHeadings: false, content: [['<a href="t.io">t</a>']] } },
      ],
    });
    expect(JSON.stringify(out)).toContain('http://x.io');
    expect(JSON.stringify(out)).toContain('http://t.io');
  });

  it('copies the upload id of image blocks for existingImages', () => {
    const out = cleanEditorOutput({
      blocks: [{ type: 'image', data: { file: { url: '/uploads/a.webp', imageId: 'img1' }, caption: '' } }],
    });
    expect(imagesOf(out)).toEqual([{ url: '/uploads/a.webp', imageId: 'img1' }]);
  });

  it('treats markup-only text as blank', () => {
    expect(isBlankHtml('<i></i>&nbsp;')).toBe(true);
    expect(isBlankHtml('<i>a</i>')).toBe(false);
  });
});

describe('embed services (generated from core EMBED_SERVICES)', () => {
  const services = editorEmbedServices();
  const paste = (name: string, link: string) => {
    const service = services[name];
    if (typeof service !== 'object') throw new Error(name);
    const match = service.regex.exec(link);
    // Editor.js accepts a pasted pattern only when it matches the whole text.
    expect(match?.[0]).toBe(link);
    return service.embedUrl.replace(/<%= remote_id %>/g, service.id(match!.slice(1)));
  };

  it('builds the same embed URL as the server for pasted links', () => {
    for (const [name, link] of [
      ['youtube', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s'],
      ['youtube', 'https://youtu.be/dQw4w9WgXcQ?si=abc'],
      ['vimeo', 'https://vimeo.com/76979871'],
      ['codepen', 'https://codepen.io/team/pen/abcDEF'],
      ['codesandbox', 'https://codesandbox.io/s/new'],
      ['stackblitz', 'https://stackblitz.com/edit/vitejs-vite-abc'],
      ['instagram', 'https://www.instagram.com/p/Bxyz123/'],
      ['twitter', 'https://x.com/someone/status/123456789'],
    ] as const) {
      expect(paste(name, link)).toBe(resolveEmbed(link)?.embed);
    }
  });

  it('switches off every built-in service of @editorjs/embed', () => {
    expect(services.inkwellOnly).toBe(true);
    expect(Object.keys(services).filter((k) => k !== 'inkwellOnly')).toEqual([
      'youtube',
      'vimeo',
      'codepen',
      'codesandbox',
      'stackblitz',
      'instagram',
      'twitter',
    ]);
  });
});

describe('saved content into the editor', () => {
  it('keeps the upload id of image blocks through an edit', () => {
    const saved = {
      blocks: [
        {
          type: 'image' as const,
          data: {
            file: { url: '/uploads/a.webp' },
            imageId: 'img1',
            caption: '',
            withBorder: false,
            withBackground: false,
            stretched: false,
          },
        },
      ],
    };
    const loaded = contentForEditor(saved);
    expect(loaded.blocks[0]?.data.file).toEqual({ url: '/uploads/a.webp', imageId: 'img1' });
    // What the image tool saves back: its own fields, `file` as given.
    const { imageId: _dropped, ...toolData } = (loaded.blocks[0]?.data ?? {}) as Record<string, unknown>;
    expect(imagesOf(cleanEditorOutput({ blocks: [{ type: 'image', data: toolData }] }))).toEqual([
      { url: '/uploads/a.webp', imageId: 'img1' },
    ]);
  });
});
