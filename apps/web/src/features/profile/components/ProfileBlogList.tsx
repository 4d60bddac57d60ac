import { FileText } from 'lucide-react';
import { useEffect, useMemo, useRef } from 'react';
import { Button } from '../../../components/ui/Button';
import { Spinner } from '../../../components/ui/Spinner';
import { errorMessage } from '../../../lib/api';
import { useServerPageReady } from '../../../lib/server-page';
import { toast } from '../../../lib/toast';
import { type ProfileList, useProfileBlogs } from '../api/profile';
import { ProfileBlogCard } from './ProfileBlogCard';

export const NO_BLOGS_TEXT = 'No blogs found';

/** One tab's blogs with 'Load more'; 'No blogs found' when empty. */
export function ProfileBlogList({ username, list }: { username: string; list: ProfileList }) {
  const pages = useProfileBlogs(username, list, true);
  const blogs = useMemo(() => {
    const seen = new Set<string>();
    return (pages.data?.pages.flatMap((p) => p.blogs) ?? []).filter((b) => !seen.has(b._id) && seen.add(b._id));
  }, [pages.data]);

  useServerPageReady(!pages.isPending);
  const toasted = useRef(0);
  useEffect(() => {
    if (!pages.isError || pages.isFetching || pages.errorUpdatedAt === toasted.current) return;
    toasted.current = pages.errorUpdatedAt;
    if (pages.data) toast.error(errorMessage(pages.error));
  }, [pages.isError, pages.isFetching, pages.error, pages.errorUpdatedAt, pages.data]);

  if (pages.isPending) {
    return (
      <div className="flex justify-center py-16 text-indigo-600 dark:text-indigo-400">
        <Spinner size={30} label="Loading blogs" />
      </div>
    );
  }
  if (pages.isError && !pages.data) {
    return (
      <p className="rounded-xl border border-red-200 bg-red-50 px-6 py-10 text-center text-red-700 dark:border-red-900 dark:bg-red-950/40 dark:text-red-300">
        {errorMessage(pages.error)}
      </p>
    );
  }
  return (
    <div>
      {blogs.length === 0 ? (
        <div className="flex flex-col items-center rounded-xl border border-dashed border-gray-300 px-6 py-14 text-center dark:border-gray-700">
          <FileText size={30} aria-hidden="true" className="text-gray-400" />
          <p className="mt-3 text-gray-600 dark:text-gray-400">{NO_BLOGS_TEXT}</p>
        </div>
      ) : (
        <ul className="space-y-4">
          {blogs.map((blog) => (
            <li key={blog._id}>
              <ProfileBlogCard blog={blog} />
            </li>
          ))}
        </ul>
      )}
      {pages.hasNextPage && blogs.length > 0 && (
        <div className="mt-6 flex justify-center">
          <Button variant="secondary" onClick={() => void pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
            {pages.isFetchingNextPage ? 'Loading...' : 'Load more'}
          </Button>
        </div>
      )}
    </div>
  );
}
