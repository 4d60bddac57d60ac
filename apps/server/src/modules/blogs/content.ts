import {
  BLOCK_DATA,
  type Block,
  type BlockType,
  type BlogContent,
  blockTunes,
  contentLimitProblem,
  type ListItem,
  MAX_CONTENT_BYTES,
  MAX_LIST_DEPTH,
  MAX_TABLE_CELLS,
  rawContent,
  resolveEmbed,
} from '@inkwell/core';
import { badRequest, tooLarge } from '../../lib/errors';
import { inputProblem } from '../../lib/input-guard';
import { cleanInlineHtml, htmlToText, isSafeImageUrl } from '../../lib/sanitize';

export interface CleanContent {
  content: BlogContent;
  /** Plain text of every block, for full-text search. */
  text: string;
  /** URLs of image blocks, to link uploads to the blog. */
  imageUrls: string[];
}

const MAX_SEARCH_TEXT = 100_000;

/**
 * What can be refused before a post's image files are decoded and stored (they fill the image
 * blocks' placeholders, which cleanContent would refuse before then): its size, nesting, shape
 * and block types. Throws as cleanContent does.
 */
export function precheckContent(input: unknown): void {
  const blocks = parseRawContent(input).blocks;
  for (const block of blocks) if (!(block.type in BLOCK_DATA)) throw badRequest(`content: unknown block type '${block.type}'`);
}

/** Parses editor output from a JSON string or object, validates every block and cleans its HTML. */
export function cleanContent(input: unknown): CleanContent {
  const parsed = parseRawContent(input);
  const blocks: Block[] = [];
  const texts: string[] = [];
  const imageUrls: string[] = [];
  for (const [index, rawBlock] of parsed.blocks.entries()) {
    if (!(rawBlock.type in BLOCK_DATA)) throw badRequest(`content: unknown block type '${rawBlock.type}'`);
    const type = rawBlock.type as BlockType;
    const data = BLOCK_DATA[type].safeParse(rawBlock.data ?? {});
    if (!data.success) throw badRequest(`content: block ${index + 1} (${type}): ${data.error.issues[0]?.message ?? 'invalid'}`);
    const tunes = blockTunes.safeParse(rawBlock.tunes ?? undefined);
    const block = cleanBlock(type, data.data as never, index, texts, imageUrls);
    if (!block) continue;
    if (rawBlock.id && /^[A-Za-z0-9_-]+$/.test(rawBlock.id)) block.id = rawBlock.id;
    if (tunes.success && tunes.data?.textVariant) block.tunes = { textVariant: tunes.data.textVariant };
    blocks.push(block);
  }
  return {
    content: { time: parsed.time ?? Date.now(), version: parsed.version, blocks },
    text: texts.join('\n').slice(0, MAX_SEARCH_TEXT),
    imageUrls,
  };
}

/** The editor output as JSON, refused when too large, too nested, holding NUL or not shaped as blocks. */
function parseRawContent(input: unknown) {
  let raw = input;
  if (typeof raw === 'string') {
    if (Buffer.byteLength(raw) > MAX_CONTENT_BYTES) throw tooLarge('Content is too large');
    try {
      raw = JSON.parse(raw);
    } catch {
      throw badRequest('content: must be valid JSON');
    }
  }
  // Counts and nesting first: a hostile post is refused before any recursive or costly work.
  // JSON bodies were checked by the input guard; a multipart field's JSON is checked here.
  const problem = contentLimitProblem(raw) ?? (typeof input === 'string' ? inputProblem(raw) : null);
  if (problem) throw badRequest(`content: ${problem}`);
  if (typeof input !== 'string' && Buffer.byteLength(JSON.stringify(raw ?? null)) > MAX_CONTENT_BYTES) {
    throw tooLarge('Content is too large');
  }
  const parsed = rawContent.safeParse(raw ?? { blocks: [] });
  if (!parsed.success) throw badRequest(`content: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}

function cleanListItems(items: ListItem[], depth: number, texts: string[]): ListItem[] {
  if (items.length && depth > MAX_LIST_DEPTH) throw badRequest(`content: lists can nest at most ${MAX_LIST_DEPTH} levels`);
  return items.map((item) => {
    const content = cleanInlineHtml(item.content);
    texts.push(htmlToText(content));
    return { content, items: cleanListItems(item.items ?? [], depth + 1, texts) };
  });
}

/** One block cleaned, or null when it carries nothing (empty paragraph or header, image without URL). */
function cleanBlock(type: BlockType, data: any, index: number, texts: string[], imageUrls: string[]): Block | null {
  const where = `content: block ${index + 1} (${type})`;
  switch (type) {
    case 'paragraph':
    case 'header': {
      const text = cleanInlineHtml(data.text);
      const plain = htmlToText(text).trim();
      if (!plain) return null;
      texts.push(plain);
      return type === 'header' ? { type, data: { text, level: data.level } } : { type, data: { text } };
    }
    case 'list':
      return { type, data: { style: data.style, items: cleanListItems(data.items, 1, texts) } };
    case 'image': {
      const url = String(data.file.url).trim();
      if (!url) return null;
      if (!isSafeImageUrl(url)) throw badRequest(`${where}: image URL must be http(s) or an uploaded image`);
      const caption = cleanInlineHtml(data.caption);
      texts.push(htmlToText(caption));
      imageUrls.push(url);
      return {
        type,
        data: {
          file: { url },
          ...(data.imageId ? { imageId: String(data.imageId) } : {}),
          caption,
          withBorder: data.withBorder,
          withBackground: data.withBackground,
          stretched: data.stretched,
        },
      };
    }
    case 'embed': {
      const resolved = resolveEmbed(data.source);
      if (!resolved) throw badRequest(`${where}: embeds are allowed only from known services`);
      const caption = cleanInlineHtml(data.caption);
      texts.push(htmlToText(caption));
      return { type, data: { ...resolved, source: data.source.trim(), caption } };
    }
    case 'code': {
      if (!data.code.trim()) return null;
      texts.push(data.code);
      const language = /^[a-z0-9+#._-]{1,40}$/i.test(data.language) ? data.language.toLowerCase() : 'plaintext';
      return { type, data: { code: data.code, language } };
    }
    case 'quote': {
      const text = cleanInlineHtml(data.text);
      if (!htmlToText(text).trim()) return null;
      const caption = cleanInlineHtml(data.caption);
      texts.push(htmlToText(text), htmlToText(caption));
      return { type, data: { text, caption, alignment: data.alignment } };
    }
    case 'delimiter':
      return { type, data: {} };
    case 'table': {
      const cells = data.content.reduce((n: number, row: string[]) => n + row.length, 0);
      if (cells > MAX_TABLE_CELLS) throw badRequest(`${where}: a table can have at most ${MAX_TABLE_CELLS} cells`);
      const content = data.content.map((row: string[]) => row.map((cell) => cleanInlineHtml(cell)));
      for (const row of content) texts.push(row.map(htmlToText).join(' '));
      return { type, data: { withHeadings: data.withHeadings, content } };
    }
  }
}
