import type { Token, Tokens } from 'marked';

/**
 * Inline Markdown ⇄ the inline HTML blocks store (b, i, u, mark, a, code, br: schemas/blocks.ts).
 * Import writes only that allowlist, escapes every other character, and keeps only http(s),
 * mailto, root-relative and fragment links, so the editor never holds live markup from a file
 * (the server's sanitizer cleans it again on save).
 */

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Decodes the entities HTML-escaped text carries (named ones we write, and numeric ones). */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[name.toLowerCase()] ?? whole;
  });
}

/** Text as block HTML: quotes stay as they are, as the server's sanitizer writes them. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const escapeAttribute = (value: string) => escapeHtml(value).replace(/"/g, '&quot;');

/** The links a post may carry (the same rule as the server's isSafeHref). */
export function isSafeLink(href: string): boolean {
  const h = href.trim();
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what must be refused in a URL.
  return /^(https?:\/\/|mailto:|\/|#)/i.test(h) && !/[\s\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(h);
}

/** Raw inline HTML kept from Markdown: exactly the tags export writes for what Markdown cannot say. */
const KEPT_TAGS: Record<string, string> = {
  '<u>': '<u>',
  '</u>': '</u>',
  '<mark>': '<mark class="cdx-marker">',
  '<mark class="cdx-marker">': '<mark class="cdx-marker">',
  '</mark>': '</mark>',
  '<br>': '<br />',
  '<br/>': '<br />',
  '<br />': '<br />',
};

/** Inline tokens of one paragraph, heading, cell or list item as block HTML. */
export function inlineHtml(tokens: Token[] | undefined): string {
  let out = '';
  for (const token of tokens ?? []) out += tokenHtml(token);
  return out;
}

function tokenHtml(token: Token): string {
  switch (token.type) {
    case 'text': {
      const t = token as Tokens.Text;
      // A soft line break shows as a space, as in a browser.
      return t.tokens?.length ? inlineHtml(t.tokens) : escapeHtml(decodeEntities(t.text).replace(/\n/g, ' '));
    }
    case 'escape':
      return escapeHtml((token as Tokens.Escape).text);
    case 'strong':
      return `<b>${inlineHtml((token as Tokens.Strong).tokens)}</b>`;
    case 'em':
      return `<i>${inlineHtml((token as Tokens.Em).tokens)}</i>`;
    case 'del':
      return inlineHtml((token as Tokens.Del).tokens);
    case 'codespan':
      return `<code class="inline-code">${escapeHtml((token as Tokens.Codespan).text)}</code>`;
    case 'br':
      return '<br />';
    case 'link': {
      const link = token as Tokens.Link;
      const text = inlineHtml(link.tokens);
      return isSafeLink(link.href) ? `<a href="${escapeAttribute(link.href.trim())}">${text}</a>` : text;
    }
    case 'image': {
      // An image inside a sentence (blocks hold images only as image blocks): its alt text.
      return escapeHtml((token as Tokens.Image).text);
    }
    case 'html': {
      const raw = (token as Tokens.HTML).text;
      return KEPT_TAGS[raw.trim().toLowerCase()] ?? escapeHtml(raw);
    }
    default:
      return 'raw' in token && typeof token.raw === 'string' ? escapeHtml(token.raw) : '';
  }
}

/** Plain text of block HTML (for image alt text and front matter). */
export function htmlText(html: string): string {
  return decodeEntities(html.replace(/<br\s*\/?>/gi, ' ').replace(/<[^>]*>/g, ''));
}

/** Characters that would start Markdown syntax inside running text. */
function escapeMarkdownText(text: string, inTable: boolean): string {
  let out = text.replace(/[\\`*_[\]<>~]/g, '\\$&').replace(/&(?=#?[a-z0-9]+;)/gi, '\\&');
  if (inTable) out = out.replace(/\|/g, '\\|');
  return out.replace(/\u00a0/g, '&nbsp;');
}

/** Escapes what would make the start of a block mean a heading, list, rule or setext underline. */
export function escapeLineStart(markdown: string): string {
  const text = markdown.replace(/^\s+/, '');
  if (/^\d+[.)](\s|$)/.test(text)) return text.replace(/^(\d+)([.)])/, '$1\\$2');
  return /^[#+=-]/.test(text) ? `\\${text}` : text;
}

/**
 * Block HTML (already cleaned by the server: well-formed tags from the allowlist) as inline Markdown.
 * u and mark have no Markdown and stay as the raw tags import keeps.
 */
export function htmlToInlineMarkdown(html: string, options: { inTable?: boolean } = {}): string {
  const inTable = options.inTable ?? false;
  let out = '';
  /** Each open link's destination, or null for one without a safe target (written as its text). */
  const links: (string | null)[] = [];
  let inCode = false;
  let code = '';
  for (const part of html.split(/(<[^>]*>)/)) {
    if (!part) continue;
    if (part[0] !== '<') {
      const text = decodeEntities(part);
      if (inCode) code += text;
      else out += escapeMarkdownText(text, inTable);
      continue;
    }
    const tag = part.match(/^<\/?([a-z0-9]+)/i)?.[1]?.toLowerCase() ?? '';
    const closing = part[1] === '/';
    if (tag === 'code') {
      if (closing) {
        out += codeSpan(code, inTable);
        code = '';
      }
      inCode = !closing;
    } else if (inCode) {
      // Formatting inside inline code has no Markdown: the code keeps its text only.
    } else if (tag === 'b' || tag === 'strong') out += '**';
    else if (tag === 'i' || tag === 'em') out += '*';
    else if (tag === 'u') out += closing ? '</u>' : '<u>';
    else if (tag === 'mark') out += closing ? '</mark>' : '<mark>';
    else if (tag === 'br') out += '<br>';
    else if (tag === 'a') {
      if (closing) {
        const target = links.pop();
        if (target) out += `](${target})`;
      } else {
        const href = decodeEntities(part.match(/\shref="([^"]*)"/i)?.[1] ?? '');
        const target = isSafeLink(href) ? linkDestination(href) : null;
        links.push(target);
        if (target) out += '[';
      }
    }
  }
  if (inCode) out += codeSpan(code, inTable);
  return out.replace(/\n/g, ' ');
}

/** A link target that survives Markdown: spaces and parentheses written as <…> when needed. */
function linkDestination(href: string): string {
  return /[\s()<>]/.test(href) ? `<${href.replace(/[<>]/g, encodeURIComponent)}>` : href;
}

/** Inline code with enough backticks to hold any run of them inside. */
function codeSpan(text: string, inTable: boolean): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const body = inTable ? text.replace(/\|/g, '\\|') : text;
  const pad = body.startsWith('`') || body.endsWith('`') || /^ .* $/.test(body) ? ' ' : '';
  return `${fence}${pad}${body}${pad}${fence}`;
}
