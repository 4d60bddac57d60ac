import { z } from 'zod';
import { HEADER_LEVELS } from '../constants';

/**
 * Editor.js blocks as stored and served. Inline HTML inside text fields is limited to
 * b, i, u, mark, a (http/https/mailto), code and br; the server cleans it, the web cleans it again.
 */
export const MAX_BLOCKS = 500;
export const MAX_TEXT_LENGTH = 20_000;
export const MAX_CODE_LENGTH = 100_000;
export const MAX_CONTENT_BYTES = 512 * 1024;
export const MAX_LIST_DEPTH = 6;
export const MAX_TABLE_CELLS = 2_500;
/**
 * Limits of a whole post, far above what a real post reaches, that keep cleaning one post under
 * ~50 ms of event-loop time: list items and table cells in all, and inline formatting marks
 * (each '<' of a tag costs the sanitizer most). Checked by contentLimitProblem before parsing.
 */
export const MAX_POST_LIST_ITEMS = 2_000;
export const MAX_POST_TABLE_CELLS = 2_500;
export const MAX_POST_INLINE_TAGS = 3_000;

export const TEXT_VARIANTS = ['', 'call-out', 'citation', 'details'] as const;

const text = z.string().max(MAX_TEXT_LENGTH, 'Text of a block is too long');

export const blockTunes = z
  .object({ textVariant: z.enum(TEXT_VARIANTS).optional() })
  .partial()
  .optional();

export interface ListItem {
  content: string;
  meta?: Record<string, unknown>;
  items: ListItem[];
}
export const listItem: z.ZodType<ListItem> = z
  .lazy(
    () =>
      z.object({
        content: text,
        meta: z.record(z.string(), z.unknown()).optional(),
        items: z.array(listItem).max(200).default([]),
      }),
    // A recursive schema needs a name to be a component of the OpenAPI document.
  )
  .meta({ id: 'ListItem' }) as z.ZodType<ListItem>;

export const paragraphData = z.object({ text });
export const headerData = z.object({
  text,
  level: z.coerce
    .number()
    .int()
    .refine((l) => (HEADER_LEVELS as readonly number[]).includes(l), 'Header level must be 2, 3 or 4'),
});
export const listData = z.object({
  style: z.enum(['ordered', 'unordered', 'checklist']).default('unordered'),
  meta: z.record(z.string(), z.unknown()).optional(),
  // Older list tool versions stored plain strings; they are turned into items.
  items: z
    .array(z.union([listItem, z.string().max(MAX_TEXT_LENGTH)]))
    .max(500)
    .transform((items) => items.map((i) => (typeof i === 'string' ? { content: i, items: [] } : i))),
});
export const imageData = z.object({
  file: z.object({ url: z.string().max(2048) }),
  imageId: z.string().max(200).optional(),
  caption: text.default(''),
  withBorder: z.boolean().default(false),
  withBackground: z.boolean().default(false),
  stretched: z.boolean().default(false),
});
export const embedData = z.object({
  service: z.string().max(50),
  source: z.string().max(2048),
  embed: z.string().max(2048),
  width: z.coerce.number().int().min(0).max(4000).optional(),
  height: z.coerce.number().int().min(0).max(4000).optional(),
  caption: text.default(''),
});
export const codeData = z.object({ code: z.string().max(MAX_CODE_LENGTH), language: z.string().max(40).default('plaintext') });
export const quoteData = z.object({ text, caption: text.default(''), alignment: z.enum(['left', 'center']).default('left') });
export const delimiterData = z.object({}).passthrough();
export const tableData = z.object({
  withHeadings: z.boolean().default(false),
  content: z.array(z.array(text).max(50)).max(200),
});

export const BLOCK_DATA = {
  paragraph: paragraphData,
  header: headerData,
  list: listData,
  image: imageData,
  embed: embedData,
  code: codeData,
  quote: quoteData,
  delimiter: delimiterData,
  table: tableData,
} as const;
export type BlockType = keyof typeof BLOCK_DATA;

export type Block =
  | { id?: string; type: 'paragraph'; data: z.infer<typeof paragraphData>; tunes?: z.infer<typeof blockTunes> }
  | { id?: string; type: 'header'; data: z.infer<typeof headerData>; tunes?: z.infer<typeof blockTunes> }
  | { id?: string; type: 'list'; data: z.infer<typeof listData>; tunes?: z.infer<typeof blockTunes> }
  | { id?: string; type: 'image'; data: z.infer<typeof imageData>; tunes?: z.infer<typeof blockTunes> }
  | { id?: string; type: 'embed'; data: z.infer<typeof embedData>; tunes?: z.infer<typeof blockTunes> }
  | { id?: string; type: 'code'; data: z.infer<typeof codeData>; tunes?: z.infer<typeof blockTunes> }
  | { id?: string; type: 'quote'; data: z.infer<typeof quoteData>; tunes?: z.infer<typeof blockTunes> }
  | { id?: string; type: 'delimiter'; data: Record<string, never>; tunes?: z.infer<typeof blockTunes> }
  | { id?: string; type: 'table'; data: z.infer<typeof tableData>; tunes?: z.infer<typeof blockTunes> };

export interface BlogContent {
  time?: number;
  version?: string;
  blocks: Block[];
}

/** Shape check of one raw block: known type, then that type's data. */
export const rawBlock = z.object({
  id: z.string().max(64).optional(),
  type: z.string().max(40),
  data: z.unknown(),
  tunes: z.unknown().optional(),
});
export const rawContent = z.object({
  time: z.number().optional(),
  version: z.string().max(40).optional(),
  blocks: z.array(rawBlock).max(MAX_BLOCKS, `A blog can have at most ${MAX_BLOCKS} blocks`),
});
