import { useParams } from 'react-router';
import { PlaceholderPage } from '../components/PlaceholderPage';

/** Blog editor (/add-blog, /edit/{id}); built in the editor issue. */
export default function BlogEditorPage() {
  const { id } = useParams();
  return <PlaceholderPage title={id ? 'Edit Blog Post' : 'Create New Blog Post'} />;
}
