import type { Block, BlogContent, ListItem } from '../schemas/blocks';
import { type PostMeta, writeFrontMatter } from './frontMatter';
import { escapeLineStart, htmlText, htmlToInlineMarkdown } from './inline';

export interface ExportablePost extends PostMeta {
  content: BlogContent;
}

/**
 * A post as a Markdown file: YAML front matter, then its blocks in GitHub-flavoured Markdown.
 * markdownToPost reads it back to the same blocks (the round-trip tests hold both to that);
 * what Markdown cannot say (image borders, text variants, a checklist's ticks) is left out.
 */
export function postToMarkdown(post: ExportablePost): string {
  const body = post.content.blocks
    .map(blockToMarkdown)
    .filter((text) => text !== '')
    .join('\n\n');
  return `${writeFrontMatter(post)}\n${body}\n`;
}

export function blockToMarkdown(block: Block): string {
  switch (block.type) {
    case 'paragraph':
      return escapeLineStart(htmlToInlineMarkdown(block.data.text));
    case 'header':
      // A trailing '#' would be read as the heading's closing sequence.
      return `${'#'.repeat(block.data.level)} ${htmlToInlineMarkdown(block.data.text).trim().replace(/(#+)$/, '\\$1')}`;
    case 'list':
      return listToMarkdown(block.data.items, block.data.style, '');
    case 'image': {
      const alt = htmlText(block.data.caption).replace(/[\\[\]]/g, '\\$&');
      return `![${alt}](${destination(block.data.file.url)})`;
    }
    case 'embed': {
      const caption = htmlToInlineMarkdown(block.data.caption).trim();
      return caption ? `[${caption}](${destination(block.data.source)})` : `<${block.data.source}>`;
    }
    case 'code': {
      const longest = Math.max(2, ...(block.data.code.match(/^`{3,}/gm) ?? []).map((run) => run.length));
      const fence = '`'.repeat(longest + 1);
      const language = block.data.language && block.data.language !== 'plaintext' ? block.data.language : '';
      return `${fence}${language}\n${block.data.code.replace(/\n$/, '')}\n${fence}`;
    }
    case 'quote': {
      // Each line of the quote is a paragraph of its own, which import joins with <br> again.
      const lines = htmlToInlineMarkdown(block.data.text)
        .split('<br>')
        .map((line) => `> ${escapeLineStart(line)}`.trimEnd());
      const caption = htmlToInlineMarkdown(block.data.caption).trim();
      return caption ? `${lines.join('\n>\n')}\n>\n> — ${caption}` : lines.join('\n>\n');
    }
    case 'delimiter':
      return '---';
    case 'table':
      return tableToMarkdown(block.data.content, block.data.withHeadings);
    default:
      return '';
  }
}

/** A URL as a link or image destination: in <…> when it holds spaces or parentheses. */
function destination(url: string): string {
  return /[\s()<>]/.test(url) ? `<${url.replace(/[<>]/g, encodeURIComponent)}>` : url;
}

function listToMarkdown(items: ListItem[], style: string, indent: string): string {
  return items
    .map((item, index) => {
      const marker = style === 'ordered' ? `${index + 1}. ` : style === 'checklist' ? '- [ ] ' : '- ';
      const content = escapeLineStart(htmlToInlineMarkdown(item.content));
      // Nested items line up under the text of their parent (after '1. ' or '- ').
      const childIndent = indent + ' '.repeat(style === 'ordered' ? marker.length : 2);
      const children = item.items?.length ? `\n${listToMarkdown(item.items, style, childIndent)}` : '';
      return `${indent}${marker}${content}${children}`;
    })
    .join('\n');
}

function tableToMarkdown(content: string[][], withHeadings: boolean): string {
  const columns = Math.max(1, ...content.map((row) => row.length));
  const line = (row: string[]) =>
    `| ${Array.from({ length: columns }, (_, i) => htmlToInlineMarkdown(row[i] ?? '', { inTable: true }).trim()).join(' | ')} |`;
  const [first, ...rest] = withHeadings ? content : [[], ...content];
  return [line(first ?? []), `|${' --- |'.repeat(columns)}`, ...rest.map(line)].join('\n');
}
