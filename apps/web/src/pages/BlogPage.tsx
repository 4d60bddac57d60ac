import { useParams } from 'react-router';
import { PlaceholderPage } from '../components/PlaceholderPage';

/** Blog reading page (/blog/{id}); built in the blog page issue. */
export default function BlogPage() {
  const { id } = useParams();
  return (
    <PlaceholderPage title="Blog">
      <p>Blog {id} will be shown here.</p>
    </PlaceholderPage>
  );
}
