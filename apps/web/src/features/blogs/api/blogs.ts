import { type BlogListResponse, HOME_PAGE_SIZE } from '@inkwell/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';

/** Optional filters of the list call (SPEC.md 7: GET /blogs takes the search filters). */
export interface BlogFilters {
  limit?: number;
  tag?: string;
  search?: string;
}

/** GET /api/v1/blogs?limit=&page= (optional filters) → {blogs, hasMore}. */
export function fetchBlogs(page: number, query: BlogFilters = {}, signal?: AbortSignal): Promise<BlogListResponse> {
  return apiRequest<BlogListResponse>('/blogs', {
    query: { limit: query.limit ?? HOME_PAGE_SIZE, page, tag: query.tag, search: query.search },
    signal,
  });
}

/** Pages of the blog list: page 1 first, 'Load More' asks for the next while hasMore. */
export function useBlogPages(query: BlogFilters = {}) {
  return useInfiniteQuery({
    queryKey: ['blogs', query],
    queryFn: ({ pageParam, signal }) => fetchBlogs(pageParam, query, signal),
    initialPageParam: 1,
    getNextPageParam: (last, _pages, lastPage) => (last.hasMore ? lastPage + 1 : undefined),
    retry: false,
  });
}
