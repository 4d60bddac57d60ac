import type { Blog } from '@inkwell/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { blogKeys } from '../../lib/queryKeys';
import { STORAGE_KEYS, storage } from '../../lib/storage';

/** Whether a path is the given blog's reading page or its edit page. */
export function isSameBlogPath(pathname: string, blogId: string): boolean {
  let path = pathname;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    /* keep the raw path */
  }
  path = path.replace(/\/+$/, '');
  return path === `/blog/${blogId}` || path === `/edit/${blogId}`;
}

/**
 * The selected blog cache of SPEC.md 3 and 4: the shown blog is kept in local storage
 * (STORAGE_KEYS.selectedBlog, read by the editor), and leaving the page clears it, and the
 * cached query, unless the destination is the same blog's page or edit page.
 */
export function useSelectedBlogCache(blogId: string, blog: Blog | undefined) {
  const queryClient = useQueryClient();

  useEffect(() => {
    if (blog) storage.set(STORAGE_KEYS.selectedBlog, JSON.stringify(blog));
  }, [blog]);

  useEffect(
    () => () => {
      // On unmount the router has already moved: window.location is the destination.
      if (isSameBlogPath(window.location.pathname, blogId)) return;
      storage.remove(STORAGE_KEYS.selectedBlog);
      queryClient.removeQueries({ queryKey: blogKeys.blog(blogId), exact: true });
    },
    [blogId, queryClient],
  );
}
