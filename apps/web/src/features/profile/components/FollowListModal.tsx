import { useMemo } from 'react';
import { Link } from 'react-router';
import { Avatar } from '../../../components/ui/Avatar';
import { FollowButton } from '../../../components/ui/FollowButton';
import { Modal } from '../../../components/ui/Modal';
import { Spinner } from '../../../components/ui/Spinner';
import { errorMessage } from '../../../lib/api';
import { useSession } from '../../../lib/session';
import { type FollowDirection, useFollowList } from '../api/profile';

interface FollowListModalProps {
  username: string;
  direction: FollowDirection | null;
  onClose: () => void;
}

const TITLES: Record<FollowDirection, string> = { followers: 'Followers', following: 'Following' };

/** Followers or following of a profile: at most 400 px tall, 'You' on the viewer's own row, Follow buttons. */
export function FollowListModal({ username, direction, onClose }: FollowListModalProps) {
  const open = direction !== null;
  const list = useFollowList(username, direction ?? 'followers', open);
  const me = useSession((s) => s.user.id ?? s.user._id);
  const users = useMemo(() => list.data?.pages.flatMap((p) => p.users) ?? [], [list.data]);

  return (
    <Modal open={open} title={direction ? TITLES[direction] : ''} onClose={onClose} className="max-w-md">
      <div className="-mx-5 max-h-[400px] overflow-y-auto px-5" data-testid="follow-list">
        {list.isPending ? (
          <div className="flex justify-center py-10 text-indigo-600 dark:text-indigo-400">
            <Spinner size={28} />
          </div>
        ) : list.isError ? (
          <p className="py-8 text-center text-sm text-red-600 dark:text-red-400">{errorMessage(list.error)}</p>
        ) : users.length === 0 ? (
          <p className="py-8 text-center text-sm text-gray-500 dark:text-gray-400">
            {direction === 'followers' ? 'No followers yet' : 'Not following anyone yet'}
          </p>
        ) : (
          <ul className="divide-y divide-gray-100 dark:divide-gray-800">
            {users.map((user) => {
              const isMe = user._id === me;
              return (
                <li key={user._id} className="flex items-center gap-3 py-3">
                  <Link to={`/@${user.username}`} onClick={onClose} className="flex min-w-0 flex-1 items-center gap-3">
                    <Avatar name={user.name} src={user.profilePic} size={40} />
                    <span className="min-w-0">
                      <span className="flex items-center gap-2">
                        <span className="truncate font-medium text-gray-900 hover:underline dark:text-gray-100">{user.name}</span>
                        {isMe && (
                          <span className="shrink-0 rounded-full bg-indigo-100 px-2 py-0.5 text-xs font-semibold text-indigo-700 dark:bg-indigo-500/20 dark:text-indigo-300">
                            You
                          </span>
                        )}
                      </span>
                      <span className="block truncate text-sm text-gray-500 dark:text-gray-400">@{user.username}</span>
                    </span>
                  </Link>
                  {!isMe && <FollowButton userId={user._id} initial={user.isFollowing} size="sm" name={user.name} />}
                </li>
              );
            })}
          </ul>
        )}
        {list.hasNextPage && (
          <div className="flex justify-center py-3">
            <button
              type="button"
              onClick={() => void list.fetchNextPage()}
              disabled={list.isFetchingNextPage}
              className="rounded-lg px-4 py-2 text-sm font-medium text-indigo-600 hover:bg-indigo-50 disabled:opacity-60 dark:text-indigo-400 dark:hover:bg-indigo-500/10"
            >
              {list.isFetchingNextPage ? 'Loading...' : 'Load more'}
            </button>
          </div>
        )}
      </div>
    </Modal>
  );
}
