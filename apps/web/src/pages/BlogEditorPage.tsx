import { BLOG_MESSAGES } from '@inkwell/core';
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, FileWarning, Lock } from 'lucide-react';
import { type ReactNode, useEffect } from 'react';
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { buttonClasses } from '../components/ui/Button';
import { PageSpinner } from '../components/ui/Spinner';
import { fetchBlog } from '../features/editor/api';
import { fetchPending } from '../features/editor/autosave/api';
import { preloadEditor } from '../features/editor/BlockEditor';
import { BlogEditorForm } from '../features/editor/components/BlogEditorForm';
import { useClearSelectedBlogOnLeave } from '../features/editor/useLeaveEditor';
import { usePageTitle } from '../hooks/usePageTitle';
import { ApiError, errorMessage } from '../lib/api';
import { useSession } from '../lib/session';

/** Blog editor (/add-blog, /edit/{id}); SPEC.md 2 "Blog editor". */
export default function BlogEditorPage() {
  const { id } = useParams();
  const token = useSession((s) => s.user.token);
  const location = useLocation();
  useClearSelectedBlogOnLeave(id);
  usePageTitle(id ? 'Edit Blog Post' : 'Create New Blog Post');

  // Fetch the Editor.js chunk while the page (and the blog) loads.
  useEffect(() => {
    if (token) preloadEditor().catch(() => undefined);
  }, [token]);

  // /edit/{id} is not wrapped in RequireAuth: only a signed-in author may open it.
  if (!token) return <Navigate to="/signin" replace state={{ from: location.pathname }} />;
  if (!id) return <BlogEditorForm key="new" />;
  return <EditBlog blogId={id} />;
}

function EditBlog({ blogId }: { blogId: string }) {
  const userId = useSession((s) => s.user.id);
  const query = useQuery({
    queryKey: ['blog', blogId, 'editor'],
    // With the author's pending autosave (and the version saves must name), if any.
    queryFn: ({ signal }) => Promise.all([fetchBlog(blogId, signal), fetchPending(blogId, signal)]),
    // The form starts from the server's current version, never a cached one.
    staleTime: 0,
    gcTime: 0,
    refetchOnMount: 'always',
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

  if (query.isPending) return <PageSpinner label="Loading blog" />;
  if (query.isError) {
    if (query.error instanceof ApiError && query.error.status === 404) {
      return <Problem icon={<FileWarning size={40} aria-hidden="true" />} title={BLOG_MESSAGES.notFound} />;
    }
    return (
      <Problem icon={<FileWarning size={40} aria-hidden="true" />} title="Couldn’t load this blog" message={errorMessage(query.error)}>
        <button type="button" onClick={() => void query.refetch()} className={buttonClasses('secondary')}>
          Try again
        </button>
      </Problem>
    );
  }

  const [blog, pending] = query.data;
  if (!blog.creator || blog.creator._id !== userId) {
    return (
      <Problem icon={<Lock size={40} aria-hidden="true" />} title="You can’t edit this blog" message={BLOG_MESSAGES.notAuthor}>
        <Link to={`/blog/${encodeURIComponent(blog.blogId)}`} className={buttonClasses('secondary')}>
          View blog
        </Link>
      </Problem>
    );
  }
  // Keyed by the blog: the form and the editor start over for another blog, never on a refetch.
  return <BlogEditorForm key={blog.blogId} blog={blog} pending={pending} />;
}

function Problem({ icon, title, message, children }: { icon: ReactNode; title: string; message?: string; children?: ReactNode }) {
  const navigate = useNavigate();
  const location = useLocation();
  return (
    <section role="alert" className="mx-auto flex max-w-lg flex-col items-center px-4 py-20 text-center">
      <span className="text-gray-400 dark:text-gray-500">{icon}</span>
      <h1 className="mt-4 text-2xl font-bold text-gray-900 dark:text-gray-100">{title}</h1>
      {message && <p className="mt-2 text-gray-600 dark:text-gray-400">{message}</p>}
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        <button
          type="button"
          onClick={() => (location.key !== 'default' ? navigate(-1) : navigate('/'))}
          className={buttonClasses('primary')}
        >
          <ArrowLeft size={16} aria-hidden="true" />
          Go back
        </button>
        {children}
      </div>
    </section>
  );
}
