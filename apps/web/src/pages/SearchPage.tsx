import { useSearchParams } from 'react-router';
import { BlogResults } from '../features/blogs/components/BlogResults';
import { usePageTitle } from '../hooks/usePageTitle';

/** Search results (/search?q=...): 'Results for {q}', cards and 'Load more' (SPEC.md 2). */
export default function SearchPage() {
  const [params] = useSearchParams();
  const q = (params.get('q') ?? '').trim();
  usePageTitle(q ? `Results for ${q}` : 'Search');
  return <BlogResults key={q} term={q} filter={{ search: q }} />;
}
