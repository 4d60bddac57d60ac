import { publishProblems, tagsField } from '@inkwell/core';
import { badRequest } from '../../lib/errors';
import { isSafeImageUrl } from '../../lib/sanitize';
import type { StoredImage, UploadsService } from '../uploads/uploads.service';
import type { BlogInput } from './blog-edit';
import type { CleanContent } from './content';

/**
 * What create and update share before their transaction: the author's input checked and turned
 * into columns, and the images it carries stored (each pushed to `stored`, so a failed write can
 * delete them again).
 */

/** Uploads files given for image blocks that still point at a local placeholder. */
export async function fillImagePlaceholders(
  uploads: UploadsService,
  userId: string,
  rawContent: unknown,
  files: Buffer[] | undefined,
  stored: StoredImage[],
): Promise<unknown> {
  if (!files?.length) return rawContent;
  const content = typeof rawContent === 'string' ? safeJson(rawContent) : rawContent;
  const blocks = (content as { blocks?: unknown[] })?.blocks;
  if (!Array.isArray(blocks)) return rawContent;
  const queue = [...files];
  for (const block of blocks as { type?: string; data?: { file?: { url?: string } } }[]) {
    if (block?.type !== 'image' || !queue.length) continue;
    const url = block.data?.file?.url ?? '';
    if (url && !url.startsWith('blob:')) continue;
    const upload = await uploads.storeImage(userId, queue.shift()!, 'inline');
    stored.push(upload);
    block.data = { ...block.data, file: { url: upload.url } };
  }
  return content;
}

/** The featured image to store: kept, removed, a new upload or a checked URL. */
export async function resolveFeatured(
  uploads: UploadsService,
  userId: string,
  image: BlogInput['image'],
  current: string | null,
  stored: StoredImage[],
): Promise<string | null> {
  if (image === undefined) return current;
  if (image === null) return null;
  if ('file' in image) {
    const upload = await uploads.storeImage(userId, image.file, 'featured');
    stored.push(upload);
    return upload.url;
  }
  const url = image.url.trim();
  if (!url) return null;
  if (!isSafeImageUrl(url)) throw badRequest('image: must be an uploaded image or an http(s) URL');
  return url;
}

/** The columns that create and update both write from the author's input. */
export function writableColumns(input: BlogInput, content: CleanContent, tags: string[], image: string | null, searchRowid: number | null) {
  return {
    title: input.title,
    description: input.description,
    image,
    content: JSON.stringify(content.content),
    search_text: content.text,
    search_rowid: searchRowid,
    tags: JSON.stringify(tags),
    block_count: content.content.blocks.length,
    draft: input.draft ? (1 as const) : (0 as const),
    // Publishing ends a schedule; a draft saved without scheduledAt keeps its own.
    scheduled_at: input.draft ? input.scheduledAt : null,
  };
}

/** A draft may be empty; a published post needs a description and a block that shows something. */
export function assertPublishable(input: BlogInput, content: CleanContent): void {
  const problems = publishProblems({ description: input.description, blocks: content.content.blocks });
  if (problems.length) throw badRequest(problems.join('. '));
}

export function parseTags(raw: unknown): string[] {
  const value = typeof raw === 'string' ? (raw.trim() ? safeJson(raw) : []) : (raw ?? []);
  const parsed = tagsField.safeParse(value);
  if (!parsed.success) throw badRequest(`tags: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest('Invalid JSON in a form field');
  }
}
