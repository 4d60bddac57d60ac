import { Lexer, type Token, type Tokens } from 'marked';
import { resolveEmbed } from '../rules/embeds';
import { type Block, type BlogContent, type ListItem, MAX_BLOCKS } from '../schemas/blocks';
import { type FrontMatter, MarkdownImportError, splitFrontMatter } from './frontMatter';
import { escapeHtml, htmlText, inlineHtml, isSafeLink } from './inline';

/** A Markdown file is refused above this size (a post's content is capped at 512 KB anyway). */
export const MAX_MARKDOWN_BYTES = 1024 * 1024;

export interface MarkdownPost extends FrontMatter {
  content: BlogContent;
}

const CODE_LANGUAGE = /^[a-z0-9+#._-]{1,40}$/i;
/** A quote's last paragraph starting with a dash is its caption (how export writes it). */
const CAPTION = /^(?:—|–|--)\s+/;

/**
 * A Markdown file (GitHub-flavoured, with optional YAML front matter) as the editor's title,
 * description, tags, cover image and blocks. Pure: runs in the browser (lazily loaded by the
 * editor's import button) and on the server alike.
 */
export function markdownToPost(markdown: string): MarkdownPost {
  if (new TextEncoder().encode(markdown).length > MAX_MARKDOWN_BYTES) {
    throw new MarkdownImportError('This Markdown file is too large (at most 1 MB).');
  }
  const { frontMatter, body } = splitFrontMatter(markdown.replace(/\r\n?/g, '\n'));
  const tokens = new Lexer({ gfm: true }).lex(body);
  const blocks: Block[] = [];
  let title = frontMatter.title;
  for (const token of tokens) {
    // A file without a title in its front matter usually starts with '# Title'.
    if (!title && !blocks.length && token.type === 'heading' && (token as Tokens.Heading).depth === 1) {
      title = htmlText(inlineHtml((token as Tokens.Heading).tokens)).trim();
      continue;
    }
    blocks.push(...tokenBlocks(token));
  }
  if (blocks.length > MAX_BLOCKS) {
    throw new MarkdownImportError(`This file makes ${blocks.length} blocks; a post can have at most ${MAX_BLOCKS}.`);
  }
  return { ...frontMatter, title, content: { blocks } };
}

function tokenBlocks(token: Token): Block[] {
  switch (token.type) {
    case 'heading': {
      const { depth, tokens } = token as Tokens.Heading;
      return [{ type: 'header', data: { text: inlineHtml(tokens), level: Math.min(4, Math.max(2, depth)) } }];
    }
    case 'paragraph':
    case 'text':
      return paragraphBlocks((token as Tokens.Paragraph).tokens ?? [{ type: 'text', raw: token.raw, text: token.raw }]);
    case 'list':
      return [listBlock(token as Tokens.List)];
    case 'code': {
      const { text, lang } = token as Tokens.Code;
      const language = (lang ?? '').trim().split(/\s+/)[0] ?? '';
      return [{ type: 'code', data: { code: text, language: CODE_LANGUAGE.test(language) ? language.toLowerCase() : 'plaintext' } }];
    }
    case 'blockquote':
      return quoteBlock(token as Tokens.Blockquote);
    case 'table':
      return [tableBlock(token as Tokens.Table)];
    case 'hr':
      return [{ type: 'delimiter', data: {} }];
    case 'html': {
      // Raw HTML is shown as its text, never run: a comment is dropped, anything else escaped.
      const raw = (token as Tokens.HTML).text.trim();
      if (!raw || /^<!--[\s\S]*-->$/.test(raw)) return [];
      return [{ type: 'paragraph', data: { text: escapeHtml(raw).replace(/\n/g, '<br />') } }];
    }
    default:
      return [];
  }
}

const isBlank = (token: Token) => token.type === 'text' && !(token as Tokens.Text).text.trim();

/** A paragraph; images in it become image blocks of their own, and a lone link to a known service an embed. */
function paragraphBlocks(tokens: Token[]): Block[] {
  const meaningful = tokens.filter((t) => !isBlank(t) && t.type !== 'br');
  const only = meaningful.length === 1 ? meaningful[0] : undefined;
  if (only?.type === 'link') {
    const link = only as Tokens.Link;
    const resolved = isSafeLink(link.href) ? resolveEmbed(link.href) : null;
    if (resolved) {
      const caption = link.text === link.href ? '' : inlineHtml(link.tokens);
      return [{ type: 'embed', data: { ...resolved, source: link.href.trim(), caption } }];
    }
  }
  const blocks: Block[] = [];
  let run: Token[] = [];
  const flush = () => {
    const text = inlineHtml(run)
      .replace(/^(\s|<br \/>)+|(\s|<br \/>)+$/g, '')
      .trim();
    if (text) blocks.push({ type: 'paragraph', data: { text } });
    run = [];
  };
  for (const token of tokens) {
    if (token.type !== 'image') {
      run.push(token);
      continue;
    }
    const image = token as Tokens.Image;
    const url = image.href.trim();
    // Only images by http(s) URL or our own uploads: anything else stays as its alt text.
    if (!/^(https?:\/\/|\/uploads\/)/i.test(url) || /\s/.test(url)) {
      run.push(token);
      continue;
    }
    flush();
    blocks.push({
      type: 'image',
      data: { file: { url }, caption: escapeHtml(image.text), withBorder: false, withBackground: false, stretched: false },
    });
  }
  flush();
  return blocks;
}

function listBlock(list: Tokens.List): Block {
  const style = list.ordered ? 'ordered' : list.items.some((item) => item.task) ? 'checklist' : 'unordered';
  return { type: 'list', data: { style, items: listItems(list) } };
}

function listItems(list: Tokens.List): ListItem[] {
  return list.items.map((item) => {
    const parts: string[] = [];
    const items: ListItem[] = [];
    for (const token of item.tokens) {
      if (token.type === 'list') items.push(...listItems(token as Tokens.List));
      else if (token.type === 'text' || token.type === 'paragraph') parts.push(inlineHtml((token as Tokens.Text).tokens ?? [token]));
      else if (token.type !== 'space' && token.type !== 'checkbox') parts.push(escapeHtml(token.raw.trim()));
    }
    return { content: parts.join('<br />'), items };
  });
}

function quoteBlock(quote: Tokens.Blockquote): Block[] {
  const parts = quote.tokens
    .filter((t) => t.type !== 'space')
    .map((t) => (t.type === 'paragraph' ? inlineHtml((t as Tokens.Paragraph).tokens) : escapeHtml(t.raw.trim())));
  let caption = '';
  const last = parts[parts.length - 1];
  if (parts.length > 1 && last && CAPTION.test(htmlText(last))) {
    caption = last.replace(CAPTION, '');
    parts.pop();
  }
  const text = parts.join('<br />');
  return text ? [{ type: 'quote', data: { text, caption, alignment: 'left' } }] : [];
}

function tableBlock(table: Tokens.Table): Block {
  const header = table.header.map((cell) => inlineHtml(cell.tokens));
  const rows = table.rows.map((row) => row.map((cell) => inlineHtml(cell.tokens)));
  // Export writes a table without headings under an empty header row (Markdown tables need one).
  const withHeadings = header.some((cell) => cell.trim());
  return { type: 'table', data: { withHeadings, content: withHeadings ? [header, ...rows] : rows } };
}
