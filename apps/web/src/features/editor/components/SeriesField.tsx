import { MAX_SERIES_TITLE_LENGTH, type SeriesListResponse, type SeriesResponse } from '@inkwell/core';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { apiRequest, errorMessage } from '../../../lib/api';
import { toast } from '../../../lib/toast';

const NEW = '__new__';
const MORE = '__more__';
const fieldClasses =
  'w-full rounded-lg border border-gray-300 bg-white px-3 py-2 text-gray-900 outline-none focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 dark:border-gray-700 dark:bg-gray-800 dark:text-gray-100';

/**
 * The post's series (issue 16): one of the author's series (the post joins its end), none, or a
 * new one. Saved at once, apart from the post's own form, as dev.to's series picker is.
 */
export function SeriesField({ blogId }: { blogId: string }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [title, setTitle] = useState('');
  // The author's series a page at a time (GET /series/mine is paged); 'More series…' loads the next.
  const mine = useInfiniteQuery({
    queryKey: ['series', 'mine'],
    queryFn: ({ pageParam, signal }) =>
      apiRequest<SeriesListResponse>(`/series/mine${pageParam ? `?cursor=${encodeURIComponent(pageParam)}` : ''}`, { signal }),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const current = useQuery({
    queryKey: ['series', 'of', blogId],
    queryFn: () => apiRequest<{ seriesId: string | null }>(`/blogs/${encodeURIComponent(blogId)}/series`),
  });
  const options = mine.data?.pages.flatMap((page) => page.series) ?? [];
  // The post's series may be on a page not loaded yet: its own option, titled from the series itself.
  const currentId = current.data?.seriesId ?? null;
  const unlisted = currentId && mine.data && !options.some((s) => s.id === currentId) ? currentId : null;
  const unlistedSeries = useQuery({
    queryKey: ['series', 'one', unlisted],
    queryFn: ({ signal }) => apiRequest<SeriesResponse>(`/series/${encodeURIComponent(unlisted ?? '')}`, { signal }),
    enabled: unlisted !== null,
  });
  const save = useMutation({
    mutationFn: async (target: { seriesId: string | null } | { title: string }) => {
      const seriesId =
        'title' in target
          ? (await apiRequest<{ series: { id: string } }>('/series', { method: 'POST', body: { title: target.title } })).series.id
          : target.seriesId;
      await apiRequest(`/blogs/${encodeURIComponent(blogId)}/series`, { method: 'PUT', body: { seriesId } });
    },
    onSuccess: () => {
      setCreating(false);
      setTitle('');
      toast.success('Series updated');
      void queryClient.invalidateQueries({ queryKey: ['series'] });
    },
    onError: (error) => toast.error(errorMessage(error)),
  });

  const onSelect = (value: string) => {
    if (value === MORE) return void mine.fetchNextPage();
    if (value === NEW) return setCreating(true);
    setCreating(false);
    save.mutate({ seriesId: value || null });
  };
  const onCreate = (event: FormEvent) => {
    event.preventDefault();
    if (title.trim()) save.mutate({ title: title.trim() });
  };

  if (mine.isError || current.isError) {
    return <p className="text-sm text-red-600 dark:text-red-400">{errorMessage(mine.error ?? current.error)}</p>;
  }
  const loading = mine.isPending || current.isPending;
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-300">
        Series
      </label>
      <select
        id={id}
        className={fieldClasses}
        disabled={loading || save.isPending}
        value={creating ? NEW : (current.data?.seriesId ?? '')}
        onChange={(e) => onSelect(e.target.value)}
      >
        <option value="">{loading ? 'Loading…' : 'No series'}</option>
        {options.map((s) => (
          <option key={s.id} value={s.id}>
            {s.title}
          </option>
        ))}
        {unlisted && <option value={unlisted}>{unlistedSeries.data?.series.title ?? 'Loading…'}</option>}
        {mine.hasNextPage && (
          <option value={MORE} disabled={mine.isFetchingNextPage}>
            {mine.isFetchingNextPage ? 'Loading more series…' : 'More series…'}
          </option>
        )}
        <option value={NEW}>New series…</option>
      </select>
      {creating && (
        <form onSubmit={onCreate} className="mt-2 flex gap-2">
          <input
            aria-label="New series title"
            className={fieldClasses}
            value={title}
            maxLength={MAX_SERIES_TITLE_LENGTH}
            onChange={(e) => setTitle(e.target.value)}
          />
          <button
            type="submit"
            disabled={save.isPending || !title.trim()}
            className="shrink-0 rounded-lg bg-indigo-600 px-3 py-2 text-sm font-medium text-white hover:bg-indigo-700 disabled:opacity-60"
          >
            Create
          </button>
        </form>
      )}
    </div>
  );
}
