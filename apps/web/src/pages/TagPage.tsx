import { useParams } from 'react-router';
import { PlaceholderPage } from '../components/PlaceholderPage';

/** Tag results (/tag/{tag}); the list comes in the search issue. */
export default function TagPage() {
  const { tag = '' } = useParams();
  return <PlaceholderPage title={`Results for ${tag}`} />;
}
