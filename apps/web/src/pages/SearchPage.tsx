import { MAX_SEARCH_LENGTH } from '@inkwell/core';
import { useSearchParams } from 'react-router';
import { BlogResults } from '../features/blogs/components/BlogResults';
import { usePageTitle } from '../hooks/usePageTitle';

/** Search results (/search?q=...): 'Results for {q}', cards and 'Load more' (SPEC.md 2). */
export default function SearchPage() {
  const [params] = useSearchParams();
  // An address longer than the server takes is cut to it, not answered with a validation error.
  const q = (params.get('q') ?? '').trim().slice(0, MAX_SEARCH_LENGTH).trim();
  usePageTitle(q ? `Results for ${q}` : 'Search');
  return <BlogResults key={q} term={q} filter={{ search: q }} />;
}
