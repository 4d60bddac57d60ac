import { type BlogContent, normalizeLink } from '@inkwell/core';

/**
 * Editor output as Editor.js saves it (loosely typed: tools may add fields) and the cleaning
 * applied before it is sent (SPEC.md 5, "Editor"): paragraphs and headings with empty text are
 * dropped, images without a file URL are dropped, links follow the editor link rule, an empty
 * text-variant tune is left out. Pure string work, so it runs in unit tests without a DOM.
 */
export interface EditorBlock {
  id?: string;
  type: string;
  data: Record<string, unknown>;
  tunes?: Record<string, unknown>;
}

export interface EditorOutput {
  time?: number;
  version?: string;
  blocks: EditorBlock[];
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&nbsp;': ' ' };

function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (m) => ENTITIES[m] ?? m);
}

/** Visible text of inline HTML (tags removed, common entities decoded). */
export function htmlToText(html: string): string {
  return decodeEntities(html.replace(/<[^>]*>/g, '')).replace(/\u00a0/g, ' ');
}

export function isBlankHtml(html: unknown): boolean {
  return typeof html !== 'string' || htmlToText(html).trim() === '';
}

const escapeAttr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/**
 * Applies core normalizeLink to every <a href> of inline HTML: a link with whitespace or an empty
 * href is unwrapped to its text, one without a protocol gets http:// (unless /, # or //).
 */
export function normalizeLinksInHtml(html: string): string {
  if (!html.includes('<a')) return html;
  return html.replace(/<a\b([^>]*)>([\s\S]*?)<\/a>/gi, (_whole, attrs: string, inner: string) => {
    const href = /\bhref\s*=\s*("([^"]*)"|'([^']*)')/i.exec(attrs);
    const raw = decodeEntities(href?.[2] ?? href?.[3] ?? '');
    const result = normalizeLink(raw);
    if (!result.ok || !result.href) return inner;
    return `<a href="${escapeAttr(result.href)}">${inner}</a>`;
  });
}

interface ListItemLike {
  content?: unknown;
  items?: unknown;
  meta?: unknown;
}

function cleanListItems(items: unknown): ListItemLike[] {
  if (!Array.isArray(items)) return [];
  return items.map((item) => {
    if (typeof item === 'string') return { content: normalizeLinksInHtml(item), items: [] };
    const it = (item ?? {}) as ListItemLike;
    return { ...it, content: normalizeLinksInHtml(String(it.content ?? '')), items: cleanListItems(it.items) };
  });
}

const text = (value: unknown) => normalizeLinksInHtml(typeof value === 'string' ? value : '');

/** One block cleaned, or null when it is dropped. */
export function cleanBlock(block: EditorBlock): EditorBlock | null {
  const data = block.data ?? {};
  let next: Record<string, unknown> = data;
  switch (block.type) {
    case 'paragraph':
    case 'header':
      if (isBlankHtml(data.text)) return null;
      next = { ...data, text: text(data.text) };
      break;
    case 'quote':
      if (isBlankHtml(data.text)) return null;
      next = { ...data, text: text(data.text), caption: text(data.caption) };
      break;
    case 'list':
      next = { ...data, items: cleanListItems(data.items) };
      break;
    case 'table':
      next = {
        ...data,
        content: Array.isArray(data.content) ? data.content.map((row) => (Array.isArray(row) ? row.map((cell) => text(cell)) : [])) : [],
      };
      break;
    case 'image': {
      const file = (data.file ?? {}) as { url?: unknown };
      if (typeof file.url !== 'string' || !file.url.trim()) return null;
      const imageId = (data.file as { imageId?: unknown }).imageId ?? data.imageId;
      next = { ...data, caption: text(data.caption), ...(typeof imageId === 'string' ? { imageId } : {}) };
      break;
    }
    case 'embed':
      next = { ...data, caption: text(data.caption) };
      break;
    case 'code':
      if (typeof data.code !== 'string' || !data.code.trim()) return null;
      break;
  }
  const cleaned: EditorBlock = { ...block, data: next };
  const variant = block.tunes?.textVariant;
  if (block.tunes) {
    const { textVariant: _omit, ...otherTunes } = block.tunes;
    const tunes = { ...otherTunes, ...(typeof variant === 'string' && variant ? { textVariant: variant } : {}) };
    if (Object.keys(tunes).length) cleaned.tunes = tunes;
    else delete cleaned.tunes;
  }
  return cleaned;
}

/**
 * A text the writer typed or pasted as the server takes it: NUL characters taken out (they draw
 * nothing, and the server refuses any request that holds one, NUL_MESSAGE, so a pasted one blocked
 * every save and autosave with no hint where it was), and a surrogate without its partner (half of
 * an emoji, cut by a paste) made U+FFFD, for the same reason (UNPAIRED_SURROGATE_MESSAGE).
 */
export function sendableText(text: string): string {
  const withoutNul = text.includes('\0') ? text.replaceAll('\0', '') : text;
  const wellFormed = withoutNul as string & { isWellFormed(): boolean; toWellFormed(): string };
  return wellFormed.isWellFormed() ? withoutNul : wellFormed.toWellFormed();
}

function sendableStrings<T>(value: T): T {
  if (typeof value === 'string') return sendableText(value) as T;
  if (Array.isArray(value)) return value.map(sendableStrings) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, sendableStrings(item)])) as T;
  return value;
}

/** The whole editor output cleaned for create/update. */
export function cleanEditorOutput(output: EditorOutput): BlogContent {
  const blocks = (output.blocks ?? [])
    .map(cleanBlock)
    .filter((b): b is EditorBlock => b !== null)
    .map(sendableStrings);
  return { time: output.time ?? Date.now(), version: output.version, blocks: blocks as unknown as BlogContent['blocks'] };
}

/** URLs (and upload ids) of the image blocks, for the update's existingImages field. */
export function imagesOf(content: BlogContent): { url: string; imageId?: string }[] {
  return content.blocks.flatMap((b) =>
    b.type === 'image' ? [{ url: b.data.file.url, ...(b.data.imageId ? { imageId: b.data.imageId } : {}) }] : [],
  );
}

/**
 * Saved content as the editor's initial data. The image tool keeps only the fields it knows,
 * except inside `file`; the upload id travels there and cleanBlock copies it back to data.imageId.
 */
export function contentForEditor(content: BlogContent): EditorOutput {
  return {
    ...content,
    blocks: content.blocks.map((block) => {
      if (block.type !== 'image' || !block.data.imageId) return block as unknown as EditorBlock;
      return { ...block, data: { ...block.data, file: { ...block.data.file, imageId: block.data.imageId } } } as unknown as EditorBlock;
    }),
  };
}
