import type { BlogCard } from '@inkwell/core';
import { useEffect, useMemo, useRef, useState } from 'react';
import { errorMessage } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { type BlogFilters, useBlogPages } from '../api/blogs';

/**
 * Home feed state of SPEC.md 4 and 8: first page once, 'Load More' appends the next page;
 * on failure the page does not advance, the list is cleared, the server message (or
 * 'Something went wrong') is toasted and hasMore becomes false.
 */
export function useBlogFeed(query: BlogFilters = {}) {
  const pages = useBlogPages(query);
  const [failed, setFailed] = useState(false);
  const toasted = useRef(0);

  useEffect(() => {
    if (!pages.isError || pages.isFetching || pages.errorUpdatedAt === toasted.current) return;
    toasted.current = pages.errorUpdatedAt;
    setFailed(true);
    toast.error(errorMessage(pages.error));
  }, [pages.isError, pages.isFetching, pages.error, pages.errorUpdatedAt]);

  const blogs = useMemo<BlogCard[]>(() => (failed ? [] : (pages.data?.pages.flatMap((p) => p.blogs ?? []) ?? [])), [failed, pages.data]);

  return {
    blogs,
    hasMore: !failed && pages.hasNextPage,
    initialLoading: pages.isPending && !failed,
    loadingMore: pages.isFetchingNextPage,
    loadMore: () => {
      if (!pages.isFetchingNextPage) void pages.fetchNextPage();
    },
  };
}
