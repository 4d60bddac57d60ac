import { useSearchParams } from 'react-router';
import { PlaceholderPage } from '../components/PlaceholderPage';

/** Search results (/search?q=...); the list comes in the search issue. */
export default function SearchPage() {
  const [params] = useSearchParams();
  return <PlaceholderPage title={`Results for ${params.get('q') ?? ''}`} />;
}
