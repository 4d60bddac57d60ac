import { normalizeTag } from '@inkwell/core';
import { Navigate, useParams } from 'react-router';
import { FeedLink } from '../components/ui/FeedLink';
import { BlogResults } from '../features/blogs/components/BlogResults';
import { usePageTitle } from '../hooks/usePageTitle';

/**
 * Tag results (/tag/{tag}): cards, 'Load more' and the tag's feed. Tags are stored in one
 * canonical form, so /tag/Node.js moves (replacing the history entry) to /tag/nodejs, where its posts are.
 */
export default function TagPage() {
  const { tag = '' } = useParams();
  const canonical = normalizeTag(tag);
  usePageTitle(`#${canonical}`);
  if (canonical && canonical !== tag) return <Navigate to={`/tag/${encodeURIComponent(canonical)}`} replace />;
  return (
    <BlogResults
      key={canonical}
      term={canonical}
      filter={{ tag: canonical }}
      action={
        canonical ? (
          <FeedLink scope={{ kind: 'tag', tag: canonical }} label={`Subscribe to posts tagged #${canonical}: RSS feed`} />
        ) : undefined
      }
    />
  );
}
