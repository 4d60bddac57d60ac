import { HEADER_LEVELS, MAX_BLOCKS, MAX_LIST_DEPTH, MAX_TABLE_CELLS } from '@inkwell/core';
import { cleanInlineHtml, htmlToText, isSafeHref, isSafeImageUrl } from '../lib/sanitize';

/**
 * A post's stored Editor.js blocks as semantic HTML, for server-rendered article pages and
 * feed entries. Stored blocks were cleaned on the way in (modules/blogs/content.ts); every text
 * field is cleaned again here with the same allowlist, and every URL checked again, so a row
 * written by an older version (or by hand) still renders safely. Work is bounded: at most
 * MAX_BLOCKS blocks, lists walked without recursion and cut at MAX_LIST_DEPTH levels and
 * MAX_LIST_ITEMS items, tables cut at MAX_TABLE_CELLS cells. Unknown or broken blocks are skipped.
 */
export interface BlocksHtmlOptions {
  /**
   * Absolute origin (e.g. config.publicUrl) that root-relative links and uploaded image paths
   * are resolved against; feeds need it because a feed reader has no base URL of ours.
   */
  baseUrl?: string;
}

/** Upper bound of list items rendered over a whole post (the editor allows 500 per level). */
export const MAX_LIST_ITEMS = 5_000;

type Data = Record<string, unknown>;

export function renderBlocksHtml(content: unknown, options: BlocksHtmlOptions = {}): string {
  const blocks = blocksOf(content);
  const base = options.baseUrl?.replace(/\/+$/, '') ?? '';
  const r = new Renderer(base);
  for (const block of blocks.slice(0, MAX_BLOCKS)) {
    if (!block || typeof block !== 'object') continue;
    const { type, data, tunes } = block as { type?: unknown; data?: unknown; tunes?: unknown };
    if (!data || typeof data !== 'object') continue;
    const html = r.block(String(type), data as Data);
    if (html) r.out.push(withVariant(html, tunes));
  }
  return r.out.join('\n');
}

function blocksOf(content: unknown): unknown[] {
  let value = content;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return [];
    }
  }
  const blocks = (value as { blocks?: unknown } | null)?.blocks;
  return Array.isArray(blocks) ? blocks : [];
}

/** The text-variant tune: a call-out box, a citation, or small print. */
function withVariant(html: string, tunes: unknown): string {
  const variant = (tunes as { textVariant?: unknown } | null)?.textVariant;
  if (variant === 'call-out') return `<aside class="call-out">${html}</aside>`;
  if (variant === 'citation') return `<blockquote class="citation">${html}</blockquote>`;
  if (variant === 'details') return `<div class="details"><small>${html}</small></div>`;
  return html;
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

class Renderer {
  readonly out: string[] = [];
  private listItemsLeft = MAX_LIST_ITEMS;

  constructor(private readonly base: string) {}

  /** Inline HTML cleaned by the API's allowlist, with root-relative links made absolute. */
  inline(html: unknown): string {
    const clean = cleanInlineHtml(str(html));
    if (!this.base) return clean;
    // Only an <a> tag written by the sanitizer can start with `<a href="`: text has `<` escaped.
    return clean.replace(/<a href="\/(?!\/)/g, `<a href="${escapeHtml(this.base)}/`);
  }

  url(url: string): string {
    return this.base && url.startsWith('/') && !url.startsWith('//') ? `${this.base}${url}` : url;
  }

  block(type: string, d: Data): string {
    switch (type) {
      case 'paragraph':
        return this.paragraph(d.text);
      case 'header': {
        const level = Number(d.level);
        const h = (HEADER_LEVELS as readonly number[]).includes(level) ? level : 3;
        const text = this.inline(d.text);
        return text.trim() ? `<h${h}>${text}</h${h}>` : '';
      }
      case 'list':
        return this.list(d);
      case 'image':
        return this.image(d);
      case 'embed':
        return this.embed(d);
      case 'code': {
        const code = str(d.code);
        if (!code) return '';
        const lang = str(d.language).toLowerCase();
        const cls = /^[a-z0-9+#._-]{1,40}$/.test(lang) && lang !== 'plaintext' ? ` class="language-${escapeHtml(lang)}"` : '';
        return `<pre><code${cls}>${escapeHtml(code)}</code></pre>`;
      }
      case 'quote': {
        const text = this.inline(d.text);
        if (!text.trim()) return '';
        const caption = this.inline(d.caption);
        return `<figure><blockquote><p>${text}</p></blockquote>${caption ? `<figcaption>— <cite>${caption}</cite></figcaption>` : ''}</figure>`;
      }
      case 'delimiter':
        return '<hr>';
      case 'table':
        return this.table(d);
      default:
        return '';
    }
  }

  paragraph(text: unknown): string {
    const html = this.inline(text);
    return html.trim() ? `<p>${html}</p>` : '';
  }

  /** Nested lists walked with an explicit stack, so no input nesting can exhaust the call stack. */
  list(d: Data): string {
    const style = d.style === 'ordered' ? 'ordered' : d.style === 'checklist' ? 'checklist' : 'unordered';
    const open = style === 'ordered' ? '<ol>' : style === 'checklist' ? '<ul class="checklist">' : '<ul>';
    const close = style === 'ordered' ? '</ol>' : '</ul>';
    if (!Array.isArray(d.items) || d.items.length === 0) return '';
    const parts = [open];
    const stack: { items: unknown[]; index: number; depth: number }[] = [{ items: d.items, index: 0, depth: 1 }];
    while (stack.length > 0) {
      const frame = stack[stack.length - 1] as (typeof stack)[number];
      if (frame.index >= frame.items.length || this.listItemsLeft <= 0) {
        stack.pop();
        parts.push(close);
        if (stack.length > 0) parts.push('</li>');
        continue;
      }
      const raw = frame.items[frame.index++];
      const item = typeof raw === 'string' ? { content: raw } : (raw as { content?: unknown; items?: unknown; meta?: unknown } | null);
      if (!item || typeof item !== 'object') continue;
      this.listItemsLeft--;
      const checked = (item.meta as { checked?: unknown } | undefined)?.checked === true;
      const box = style === 'checklist' ? (checked ? '☑ ' : '☐ ') : '';
      parts.push(`<li>${box}${this.inline(item.content)}`);
      const children = Array.isArray(item.items) ? item.items : [];
      if (children.length > 0 && frame.depth < MAX_LIST_DEPTH) {
        parts.push(open);
        stack.push({ items: children, index: 0, depth: frame.depth + 1 });
      } else {
        parts.push('</li>');
      }
    }
    return parts.join('');
  }

  image(d: Data): string {
    const url = str((d.file as { url?: unknown } | null)?.url).trim();
    if (!url || !isSafeImageUrl(url)) return '';
    const caption = this.inline(d.caption);
    const alt = escapeHtml(htmlToText(str(d.caption)).trim());
    const img = `<img src="${escapeHtml(this.url(url))}" alt="${alt}" loading="lazy" decoding="async">`;
    return `<figure>${img}${caption ? `<figcaption>${caption}</figcaption>` : ''}</figure>`;
  }

  /** An embed becomes a plain link to its source: no third-party frame outside our own pages. */
  embed(d: Data): string {
    const source = str(d.source).trim();
    if (!/^https?:\/\//i.test(source) || !isSafeHref(source)) return '';
    const service = str(d.service)
      .replace(/[^A-Za-z0-9 ._-]/g, '')
      .slice(0, 50);
    const label = service ? `${service.charAt(0).toUpperCase()}${service.slice(1)}: ` : '';
    const caption = this.inline(d.caption);
    const link = `<p><a href="${escapeHtml(source)}" rel="noopener noreferrer nofollow ugc">${escapeHtml(label + source)}</a></p>`;
    return `<figure class="embed">${link}${caption ? `<figcaption>${caption}</figcaption>` : ''}</figure>`;
  }

  table(d: Data): string {
    if (!Array.isArray(d.content) || d.content.length === 0) return '';
    let cellsLeft = MAX_TABLE_CELLS;
    const rows: string[][] = [];
    for (const row of d.content) {
      if (!Array.isArray(row) || cellsLeft <= 0) continue;
      const cells = row.slice(0, cellsLeft).map((cell) => this.inline(cell));
      cellsLeft -= cells.length;
      rows.push(cells);
    }
    const [head, ...body] = d.withHeadings === true ? rows : [undefined, ...rows];
    const thead = head ? `<thead><tr>${head.map((c) => `<th>${c}</th>`).join('')}</tr></thead>` : '';
    const tbody = `<tbody>${body.map((row) => `<tr>${(row ?? []).map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</tbody>`;
    return `<table>${thead}${tbody}</table>`;
  }
}
