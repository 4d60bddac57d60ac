import type { BlogListResponse } from '@inkwell/core';
import { HOME_PAGE_SIZE, RESULTS_PAGE_SIZE } from '@inkwell/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';
import { type BlogFilters, blogKeys } from '../../../lib/queryKeys';

export type { BlogFilters };

/** Page size of the search and tag results (SPEC.md 9: page starts at 1, +1 per 'Load more'). */
export { RESULTS_PAGE_SIZE };

/** GET /api/v1/blogs?limit=&page= (optional filters) → {blogs, hasMore}. */
export function fetchBlogs(page: number, query: BlogFilters = {}, signal?: AbortSignal): Promise<BlogListResponse> {
  return apiRequest<BlogListResponse>('/blogs', {
    query: { limit: query.limit ?? HOME_PAGE_SIZE, page, tag: query.tag, search: query.search },
    signal,
  });
}

/** GET /api/v1/search-blogs?search=…|tag=…&page=&limit= → {blogs, hasMore}. */
export function fetchSearchResults(page: number, query: BlogFilters, signal?: AbortSignal): Promise<BlogListResponse> {
  return apiRequest<BlogListResponse>('/search-blogs', {
    query: { search: query.search, tag: query.tag, page, limit: query.limit ?? RESULTS_PAGE_SIZE },
    signal,
  });
}

export type BlogListSource = 'feed' | 'search';

/**
 * Pages of a blog list: page 1 first, 'Load More' asks for the next while hasMore.
 * 'feed' is the home list (GET /blogs), 'search' the search and tag results (GET /search-blogs).
 */
export function useBlogPages(query: BlogFilters = {}, source: BlogListSource = 'feed', enabled = true) {
  return useInfiniteQuery({
    queryKey: source === 'feed' ? blogKeys.feed(query) : blogKeys.results(query),
    queryFn: ({ pageParam, signal }) =>
      source === 'feed' ? fetchBlogs(pageParam, query, signal) : fetchSearchResults(pageParam, query, signal),
    initialPageParam: 1,
    getNextPageParam: (last, _pages, lastPage) => (last.hasMore ? lastPage + 1 : undefined),
    retry: false,
    enabled,
  });
}
