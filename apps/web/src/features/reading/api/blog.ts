import type { Blog } from '@inkwell/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';
import { blogKeys } from '../../../lib/queryKeys';

/** Calls of the reading page (kept apart from the list calls so the home page does not carry them). */

/** GET /api/v1/blogs/{blogId} → {blog} with the viewer's isLiked, isSaved and isFollowing. */
export function fetchBlog(blogId: string, signal?: AbortSignal): Promise<Blog> {
  return apiRequest<{ blog: Blog }>(`/blogs/${encodeURIComponent(blogId)}`, { signal }).then((r) => r.blog);
}

/** One blog for the reading page (the page refetches it when the signed-in user changes: the flags are the viewer's). */
export function useBlog(blogId: string) {
  return useQuery({
    queryKey: blogKeys.blog(blogId),
    queryFn: ({ signal }) => fetchBlog(blogId, signal),
    enabled: blogId !== '',
  });
}

/** DELETE /api/v1/blogs/{blogId} (author) → {message}. */
export function deleteBlog(blogId: string): Promise<{ message?: string }> {
  return apiRequest<{ message?: string }>(`/blogs/${encodeURIComponent(blogId)}`, { method: 'DELETE' });
}

/** POST /api/v1/blogs/like/{blogId} → {message, liked, likeCount}. */
export function toggleBlogLike(blogId: string): Promise<{ message: string; liked: boolean; likeCount: number }> {
  return apiRequest(`/blogs/like/${encodeURIComponent(blogId)}`, { method: 'POST' });
}

/** PATCH /api/v1/save-blog/{blogId} → {message, saved, saveCount}. */
export function toggleBlogSave(blogId: string): Promise<{ message: string; saved: boolean; saveCount: number }> {
  return apiRequest(`/save-blog/${encodeURIComponent(blogId)}`, { method: 'PATCH' });
}
