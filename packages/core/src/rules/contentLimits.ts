import { MAX_BLOCKS, MAX_LIST_DEPTH, MAX_POST_INLINE_TAGS, MAX_POST_LIST_ITEMS, MAX_POST_TABLE_CELLS } from '../schemas/blocks';

export const CONTENT_LIMIT_MESSAGES = {
  blocks: `A post can have at most ${MAX_BLOCKS} blocks`,
  listDepth: `Lists can nest at most ${MAX_LIST_DEPTH} levels`,
  listItems: `A post can have at most ${MAX_POST_LIST_ITEMS.toLocaleString('en-US')} list items`,
  tableCells: `A post can have at most ${MAX_POST_TABLE_CELLS.toLocaleString('en-US')} table cells`,
  inlineTags: `A post can have at most ${MAX_POST_INLINE_TAGS.toLocaleString('en-US')} formatted pieces of text (bold, links, code…)`,
} as const;

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function countTags(text: unknown): number {
  if (typeof text !== 'string') return 0;
  let n = 0;
  for (let i = text.indexOf('<'); i !== -1; i = text.indexOf('<', i + 1)) n++;
  return n;
}

/**
 * A cheap structural walk of raw editor output (no recursion, no parsing, stops at the first limit
 * passed), run before the schema and the HTML sanitizer so hostile posts cost almost nothing.
 * Returns the message of the first limit passed, or null. Shapes it does not know are left to
 * the schema. Used by the server before cleaning and by the editor before saving.
 */
export function contentLimitProblem(raw: unknown): string | null {
  if (!isObject(raw) || !Array.isArray(raw.blocks)) return null;
  if (raw.blocks.length > MAX_BLOCKS) return CONTENT_LIMIT_MESSAGES.blocks;
  let listItems = 0;
  let cells = 0;
  let tags = 0;
  for (const block of raw.blocks) {
    if (!isObject(block) || !isObject(block.data)) continue;
    const data = block.data;
    if (block.type === 'list') {
      const stack: { items: unknown; depth: number }[] = [{ items: data.items, depth: 1 }];
      while (stack.length) {
        const { items, depth } = stack.pop()!;
        if (!Array.isArray(items) || items.length === 0) continue;
        if (depth > MAX_LIST_DEPTH) return CONTENT_LIMIT_MESSAGES.listDepth;
        listItems += items.length;
        if (listItems > MAX_POST_LIST_ITEMS) return CONTENT_LIMIT_MESSAGES.listItems;
        for (const item of items) {
          if (typeof item === 'string') tags += countTags(item);
          else if (isObject(item)) {
            tags += countTags(item.content);
            stack.push({ items: item.items, depth: depth + 1 });
          }
        }
      }
    } else if (block.type === 'table' && Array.isArray(data.content)) {
      for (const row of data.content) {
        if (!Array.isArray(row)) continue;
        cells += row.length;
        if (cells > MAX_POST_TABLE_CELLS) return CONTENT_LIMIT_MESSAGES.tableCells;
        for (const cell of row) tags += countTags(cell);
      }
    } else {
      tags += countTags(data.text) + countTags(data.caption);
    }
    if (tags > MAX_POST_INLINE_TAGS) return CONTENT_LIMIT_MESSAGES.inlineTags;
  }
  return null;
}
