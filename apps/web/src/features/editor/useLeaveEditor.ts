import { useEffect } from 'react';
import { STORAGE_KEYS, storage } from '../../lib/storage';

/** True when `pathname` is the blog's reading page or its edit page (SPEC.md 4). */
export function isSameBlogPath(pathname: string, blogId: string | undefined): boolean {
  if (!blogId) return false;
  const path = pathname.replace(/\/+$/, '');
  const ids = new Set([blogId, encodeURIComponent(blogId)]);
  for (const id of ids) if (path === `/blog/${id}` || path === `/edit/${id}`) return true;
  return false;
}

/**
 * Leaving the editor clears the cached selected blog unless the destination is the same blog's
 * page or edit page. The router has already moved to the destination when the page unmounts.
 */
export function useClearSelectedBlogOnLeave(blogId: string | undefined): void {
  useEffect(
    () => () => {
      if (!isSameBlogPath(window.location.pathname, blogId)) storage.remove(STORAGE_KEYS.selectedBlog);
    },
    [blogId],
  );
}
