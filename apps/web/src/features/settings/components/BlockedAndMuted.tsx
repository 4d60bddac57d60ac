import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Avatar } from '../../../components/ui/Avatar';
import { Button } from '../../../components/ui/Button';
import { Spinner } from '../../../components/ui/Spinner';
import { errorMessage } from '../../../lib/api';
import { queryClient } from '../../../lib/queryClient';
import { profileKeys } from '../../../lib/queryKeys';
import { toast } from '../../../lib/toast';
import { type BlockKind, blocksKey, undoRelation, useBlocks } from '../api/blocks';
import { FormError } from './FormError';

const UNDO_FAILED = 'Could not undo that. Please try again.';

const TITLES: Record<BlockKind, { heading: string; empty: string; undo: string }> = {
  blocked: { heading: 'Blocked', empty: 'You have not blocked anyone.', undo: 'Unblock' },
  muted: { heading: 'Muted', empty: 'You have not muted anyone.', undo: 'Unmute' },
};

/** Settings → 'Blocked and muted' (issue 15): both lists, each person with an Undo. */
export function BlockedAndMuted() {
  return (
    <div className="space-y-4">
      <header>
        <h2 className="text-lg font-semibold text-gray-900 dark:text-gray-100">Blocked and muted</h2>
        <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">
          Blocked people cannot follow you, comment on your posts or notify you. Muted people stay out of your feed and notifications.
        </p>
      </header>
      <RelationList kind="blocked" />
      <RelationList kind="muted" />
    </div>
  );
}

function RelationList({ kind }: { kind: BlockKind }) {
  const texts = TITLES[kind];
  const list = useBlocks(kind);
  const undo = useMutation({
    mutationFn: (userId: string) => undoRelation(userId, kind),
    onSuccess: (data) => {
      toast.success(data.message);
      void queryClient.invalidateQueries({ queryKey: blocksKey(kind) });
      void queryClient.invalidateQueries({ queryKey: profileKeys.all });
    },
    onError: (error) => toast.error(errorMessage(error, UNDO_FAILED)),
  });
  const users = list.data?.pages.flatMap((p) => p.users) ?? [];

  return (
    <section aria-label={texts.heading}>
      <h3 className="text-sm font-semibold text-gray-800 dark:text-gray-200">{texts.heading}</h3>
      {list.isPending ? (
        <div className="mt-2 flex items-center gap-2 text-sm text-gray-600 dark:text-gray-400">
          <Spinner size={18} label={`Loading ${texts.heading.toLowerCase()} users`} />
          Loading...
        </div>
      ) : list.isError ? (
        <div role="alert" className="mt-2 flex flex-wrap items-center gap-3 text-sm text-red-700 dark:text-red-300">
          Could not load this list.
          <Button size="sm" variant="secondary" onClick={() => void list.refetch()}>
            Try again
          </Button>
        </div>
      ) : users.length === 0 ? (
        <p className="mt-2 text-sm text-gray-600 dark:text-gray-400">{texts.empty}</p>
      ) : (
        <ul className="mt-2 divide-y divide-gray-200 dark:divide-gray-800">
          {users.map((u) => (
            <li key={u._id} className="flex items-center gap-3 py-2">
              <Avatar name={u.name} src={u.profilePic} size={32} />
              <Link to={`/@${u.username}`} className="min-w-0 flex-1 truncate text-sm text-gray-900 hover:underline dark:text-gray-100">
                {u.name} <span className="text-gray-500 dark:text-gray-400">@{u.username}</span>
              </Link>
              <Button
                size="sm"
                variant="secondary"
                disabled={undo.isPending && undo.variables === u._id}
                onClick={() => undo.mutate(u._id)}
                aria-label={`Undo: ${texts.undo.toLowerCase()} ${u.name}`}
              >
                Undo
              </Button>
            </li>
          ))}
        </ul>
      )}
      <FormError id={`undo-${kind}-error`} className="mt-2" message={undo.isError ? errorMessage(undo.error, UNDO_FAILED) : null} />
      {list.hasNextPage && (
        <Button size="sm" variant="secondary" className="mt-2" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
          {list.isFetchingNextPage ? 'Loading...' : 'Show more'}
        </Button>
      )}
    </section>
  );
}
