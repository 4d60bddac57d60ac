import { useQueryClient } from '@tanstack/react-query';
import { FileQuestion } from 'lucide-react';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Button } from '../components/ui/Button';
import { PageSpinner } from '../components/ui/Spinner';
import { useRole } from '../features/auth/hooks/useRole';
import { useBlog } from '../features/reading/api/blog';
import { BlogArticle } from '../features/reading/components/BlogArticle';
import { useSelectedBlogCache } from '../features/reading/useLeaveBlog';
import { usePageTitle } from '../hooks/usePageTitle';
import { ApiError, errorMessage } from '../lib/api';
import { blogKeys } from '../lib/queryKeys';
import { useServerPageReady } from '../lib/server-page';
import { canModerate, useSession } from '../lib/session';

const loadCommentPanel = () => import('../features/comments/components/CommentPanel');
const CommentPanel = lazy(loadCommentPanel);

/** 'Blog not found' (or the load error) with 'Go back' (SPEC.md 2 and 8). */
function BlogMissing({ message }: { message: string }) {
  const navigate = useNavigate();
  usePageTitle(message);
  const goBack = () => {
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) navigate(-1);
    else navigate('/');
  };
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <FileQuestion size={48} aria-hidden="true" className="text-gray-400 dark:text-gray-500" />
      <h1 className="mt-4 text-2xl font-bold text-gray-900 dark:text-gray-100">{message}</h1>
      <Button className="mt-8" onClick={goBack}>
        Go back
      </Button>
    </section>
  );
}

function LoadingBlog() {
  usePageTitle('Loading blog');
  return <PageSpinner label="Loading blog" />;
}

function BlogView({ blogId }: { blogId: string }) {
  const queryClient = useQueryClient();
  const blog = useBlog(blogId);
  const viewerId = useSession((s) => (s.user.token ? (s.user.id ?? s.user._id) : null));
  const role = useRole();
  // A link to one comment (the moderation queue's '/blog/{id}#comment-{commentId}') opens the panel at once.
  const [commentsOpen, setCommentsOpen] = useState(() => window.location.hash.startsWith('#comment-'));
  const commentsButtonRef = useRef<HTMLButtonElement>(null);
  useSelectedBlogCache(blogId, blog.data);
  useServerPageReady(!blog.isPending);

  // The viewer's flags (liked, saved, following) change with the signed-in user.
  const shownViewer = useRef(viewerId);
  useEffect(() => {
    if (shownViewer.current === viewerId) return;
    shownViewer.current = viewerId;
    void queryClient.invalidateQueries({ queryKey: blogKeys.blog(blogId) });
    void queryClient.invalidateQueries({ queryKey: ['comments', blogId] });
  }, [viewerId, blogId, queryClient]);

  const preload = useCallback(() => void loadCommentPanel(), []);
  const closeComments = useCallback(() => setCommentsOpen(false), []);

  if (blog.isPending) return <LoadingBlog />;
  if (blog.isError) {
    const notFound = blog.error instanceof ApiError && blog.error.status === 404;
    return <BlogMissing message={notFound ? 'Blog not found' : errorMessage(blog.error)} />;
  }

  const data = blog.data;
  const creatorId = data.creator?._id ?? null;
  return (
    <>
      <BlogArticle
        blog={data}
        isAuthor={viewerId !== null && viewerId === creatorId}
        commentsOpen={commentsOpen}
        onOpenComments={() => setCommentsOpen(true)}
        onPreloadComments={preload}
        commentsButtonRef={commentsButtonRef}
        canModerate={canModerate(role)}
      />
      {commentsOpen && (
        <Suspense fallback={null}>
          <CommentPanel
            blogId={data.blogId}
            blogCreatorId={creatorId}
            count={data.commentCount}
            onClose={closeComments}
            returnFocus={commentsButtonRef}
          />
        </Suspense>
      )}
    </>
  );
}

/** Blog reading page (/blog/{id}): spinner, the article, the comment panel (lazy), or 'Blog not found'. */
export default function BlogPage() {
  const { id = '' } = useParams();
  // A new id is a new page: the comment panel and every local state start afresh.
  return <BlogView key={id} blogId={id} />;
}
