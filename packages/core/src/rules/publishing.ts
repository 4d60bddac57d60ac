import { normalizeText } from '../schemas/text';

export const PUBLISH_MESSAGES = {
  needsDescription: 'Add a description before publishing',
  needsContent: 'Write something in the post before publishing (at least one block with text, an image or an embed)',
} as const;

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Visible text of inline HTML: tags dropped, spaces and invisible characters trimmed. */
function hasVisibleText(html: unknown): boolean {
  if (typeof html !== 'string') return false;
  return normalizeText(html.replace(/<[^>]*>/g, '').replace(/&nbsp;/gi, ' ')) !== '';
}

function listHasText(items: unknown): boolean {
  const stack = [items];
  while (stack.length) {
    const list = stack.pop();
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      if (typeof item === 'string' ? hasVisibleText(item) : isObject(item) && hasVisibleText(item.content)) return true;
      if (isObject(item)) stack.push(item.items);
    }
  }
  return false;
}

/** Whether a block (as the editor saves it, or as the server stored it) shows a reader anything. */
export function blockHasContent(block: unknown): boolean {
  if (!isObject(block) || !isObject(block.data)) return false;
  const data = block.data;
  switch (block.type) {
    case 'paragraph':
    case 'header':
    case 'quote':
      return hasVisibleText(data.text);
    case 'list':
      return listHasText(data.items);
    case 'table':
      return Array.isArray(data.content) && data.content.some((row) => Array.isArray(row) && row.some(hasVisibleText));
    case 'code':
      return typeof data.code === 'string' && data.code.trim() !== '';
    case 'image':
      return isObject(data.file) && typeof data.file.url === 'string' && data.file.url.trim() !== '';
    case 'embed':
      return typeof data.source === 'string' && data.source.trim() !== '';
    default:
      return false;
  }
}

/**
 * What a post lacks to be published (a draft may be empty): a description and at least one block
 * that shows something. Empty when it can be published. The server refuses with these messages;
 * the editor shows them before sending.
 */
export function publishProblems(post: { description: string; blocks: readonly unknown[] }): string[] {
  const problems: string[] = [];
  if (!normalizeText(post.description)) problems.push(PUBLISH_MESSAGES.needsDescription);
  if (!post.blocks.some(blockHasContent)) problems.push(PUBLISH_MESSAGES.needsContent);
  return problems;
}
