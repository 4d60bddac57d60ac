import type { BlogCard } from '@inkwell/core';
import { useEffect, useMemo, useRef, useState } from 'react';
import { errorMessage } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { type BlogFilters, type BlogListSource, useBlogPages } from '../api/blogs';

/**
 * Blog list state of SPEC.md 4 and 8 (home feed, search and tag results): first page once,
 * 'Load More' appends the next page; on failure the page does not advance, the list is
 * cleared, the server message (or 'Something went wrong') is toasted and hasMore becomes false.
 */
export function useBlogFeed(query: BlogFilters = {}, source: BlogListSource = 'feed', enabled = true) {
  const pages = useBlogPages(query, source, enabled);
  const [failed, setFailed] = useState(false);
  const toasted = useRef(0);

  useEffect(() => {
    if (!pages.isError || pages.isFetching || pages.errorUpdatedAt === toasted.current) return;
    toasted.current = pages.errorUpdatedAt;
    setFailed(true);
    toast.error(errorMessage(pages.error));
  }, [pages.isError, pages.isFetching, pages.error, pages.errorUpdatedAt]);

  const blogs = useMemo<BlogCard[]>(() => {
    if (failed) return [];
    // Pages are offset-based: a post published between two pages may appear twice; keep the first.
    const seen = new Set<string>();
    const out: BlogCard[] = [];
    for (const blog of pages.data?.pages.flatMap((p) => p.blogs ?? []) ?? []) {
      const key = blog._id ?? blog.blogId;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(blog);
    }
    return out;
  }, [failed, pages.data]);

  return {
    blogs,
    hasMore: !failed && pages.hasNextPage,
    initialLoading: enabled && pages.isPending && !failed,
    loadingMore: pages.isFetchingNextPage,
    loadMore: () => {
      if (!pages.isFetchingNextPage) void pages.fetchNextPage();
    },
    /** The list was cleared by a failed read (SPEC.md 8): it says so, not that there are no posts. */
    failed,
    retrying: failed && pages.isFetching,
    retry: () => {
      void pages.refetch().then((result) => {
        if (!result.isError) setFailed(false);
      });
    },
  };
}
