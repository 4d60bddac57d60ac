import { useParams } from 'react-router';
import { BlogResults } from '../features/blogs/components/BlogResults';

/** Tag results (/tag/{tag}): the tag as given in the URL (already a slug), cards and 'Load more'. */
export default function TagPage() {
  const { tag = '' } = useParams();
  return <BlogResults key={tag} term={tag} filter={{ tag }} />;
}
