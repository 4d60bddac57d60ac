import { fetchBlog } from '../features/reading/api/blog';
import { queryClient } from '../lib/queryClient';
import { blogKeys } from '../lib/queryKeys';

/**
 * Starts the request for the data of the page being opened while React and the page's code are
 * still starting, instead of when the page first renders: the same query (key and function) the
 * page then uses, so it finds the request in flight or its answer. Only the blog page: its largest
 * paint is the article, which waits for this request.
 */
export function prefetchRouteData(pathname: string): void {
  const blog = /^\/blog\/([^/]+)\/?$/.exec(pathname);
  if (!blog?.[1]) return;
  let blogId: string;
  try {
    blogId = decodeURIComponent(blog[1]);
  } catch {
    return;
  }
  void queryClient.prefetchQuery({ queryKey: blogKeys.blog(blogId), queryFn: ({ signal }) => fetchBlog(blogId, signal) });
}
