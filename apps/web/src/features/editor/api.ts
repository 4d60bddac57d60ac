import { type Blog, type BlogCard, type BlogContent, FEATURED_IMAGE_MAX_BYTES } from '@inkwell/core';
import { ApiError, apiRequest, FALLBACK_ERROR } from '../../lib/api';
import { toast } from '../../lib/toast';
import { imagesOf } from './content';

/** GET /blogs/{blogId} → the blog (drafts only for their author). */
export async function fetchBlog(blogId: string, signal?: AbortSignal): Promise<Blog> {
  const data = await apiRequest<{ success: true; blog: Blog }>(`/blogs/${encodeURIComponent(blogId)}`, { signal });
  return data.blog;
}

export interface BlogWriteInput {
  title: string;
  description: string;
  tags: string[];
  content: BlogContent;
  draft: boolean;
  /** A new featured image file or URL, null to remove it, undefined to keep the current one. */
  image?: File | string | null;
  /** The version the editor started from (autosave); a stale one gets 409. */
  version?: number | null;
  /** Drafts: publish at this time (UTC ISO); null cancels a schedule; undefined sends nothing. */
  scheduledAt?: string | null;
}

export interface BlogWriteResult {
  success: true;
  message: string;
  blog: BlogCard;
}

/**
 * POST /blogs (create) or PATCH /blogs/{blogId} (update) as multipart (SPEC.md 7): text fields,
 * content and tags as JSON, draft 'true'/'false', existingImages on update, and the featured
 * image file in `image` ('' removes it; absent keeps it). Image blocks are uploaded while
 * editing, so no `images` files are needed.
 */
export function saveBlog(input: BlogWriteInput, blogId?: string): Promise<BlogWriteResult> {
  const form = new FormData();
  form.set('title', input.title);
  form.set('description', input.description);
  form.set('tags', JSON.stringify(input.tags));
  form.set('content', JSON.stringify(input.content));
  form.set('draft', String(input.draft));
  if (blogId) form.set('existingImages', JSON.stringify(imagesOf(input.content)));
  if (input.image === null) form.set('image', '');
  else if (typeof input.image === 'string') form.set('image', input.image);
  else if (input.image) form.set('image', input.image, input.image.name);
  if (typeof input.version === 'number') form.set('version', String(input.version));
  if (input.scheduledAt !== undefined) form.set('scheduledAt', input.scheduledAt ?? '');
  return blogId
    ? apiRequest<BlogWriteResult>(`/blogs/${encodeURIComponent(blogId)}`, { method: 'PATCH', body: form })
    : apiRequest<BlogWriteResult>('/blogs', { method: 'POST', body: form });
}

/** The Editor.js image tool's upload response (SPEC.md 7, "Image uploader"). */
export interface UploadResult {
  success: number;
  file: { url: string; imageId?: string; width?: number; height?: number };
}

export const IMAGE_TOO_LARGE = 'Image must be at most 5MB';

function checkUpload(result: UploadResult): UploadResult {
  // A response without success or a file URL is a failed upload (SPEC.md 8).
  if (result?.success !== 1 || typeof result.file?.url !== 'string' || !result.file.url) throw new ApiError(FALLBACK_ERROR, 200);
  return result;
}

/** Shows the server's reason next to the editor's own 'Couldn’t upload image' notice. */
function reportUploadError(error: unknown): never {
  if (error instanceof ApiError && error.message !== FALLBACK_ERROR) toast.error(error.message);
  throw error;
}

/** Uploads for image blocks (kind=inline), with the Bearer header of apiRequest. */
export const editorImageUploader = {
  async uploadByFile(file: Blob): Promise<UploadResult> {
    if (file.size > FEATURED_IMAGE_MAX_BYTES) reportUploadError(new ApiError(IMAGE_TOO_LARGE, 413));
    const form = new FormData();
    form.set('image', file, file instanceof File ? file.name : 'image');
    return apiRequest<UploadResult>('/uploads/image', { method: 'POST', query: { kind: 'inline' }, body: form })
      .then(checkUpload)
      .catch(reportUploadError);
  },
  async uploadByUrl(url: string): Promise<UploadResult> {
    return apiRequest<UploadResult>('/uploads/image-by-url', { method: 'POST', query: { kind: 'inline' }, body: { url } })
      .then(checkUpload)
      .catch(reportUploadError);
  },
};
