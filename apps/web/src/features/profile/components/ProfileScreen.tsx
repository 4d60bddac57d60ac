import { DELAYS_MS, type Profile } from '@inkwell/core';
import { Pencil, UserX } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { Link, Navigate, NavLink, useNavigate } from 'react-router';
import { Avatar } from '../../../components/ui/Avatar';
import { buttonClasses } from '../../../components/ui/Button';
import { FeedLink } from '../../../components/ui/FeedLink';
import { FollowButton } from '../../../components/ui/FollowButton';
import { usePageTitle } from '../../../hooks/usePageTitle';
import { ApiError, errorMessage } from '../../../lib/api';
import { useServerPageReady } from '../../../lib/server-page';
import { useSession } from '../../../lib/session';
import { type FollowDirection, type ProfileList, useProfile } from '../api/profile';
import { FollowListModal } from './FollowListModal';
import { ProfileBlogList } from './ProfileBlogList';
import { ProfileMenu } from './ProfileMenu';
import { ProfileSideCards } from './ProfileSideCards';
import { ProfileSkeleton } from './ProfileSkeleton';

export const PROFILE_TEXTS = {
  notFound: 'User not found',
  loadFailed: 'Failed to load profile',
} as const;

/** Which tabs a viewer may open (SPEC.md 6): Saved and Liked for the owner or when enabled; Drafts for the owner. */
export function canSee(profile: Profile, list: ProfileList): boolean {
  switch (list) {
    case 'blogs':
      return true;
    case 'saved-blogs':
      return profile.isOwner || profile.showSavedBlogs;
    case 'liked-blogs':
      return profile.isOwner || profile.showLikedBlogs;
    case 'draft-blogs':
      return profile.isOwner;
  }
}

const TABS: { list: ProfileList; label: string }[] = [
  { list: 'blogs', label: 'Blogs' },
  { list: 'saved-blogs', label: 'Saved' },
  { list: 'liked-blogs', label: 'Liked' },
  { list: 'draft-blogs', label: 'Drafts' },
];

/** The tab title: 'Name (@username)', after the tab's name on the other tabs; '@username' while loading. */
function profileTitle(username: string, list: ProfileList, profile: Profile | undefined, notFound: boolean): string {
  if (notFound) return PROFILE_TEXTS.notFound;
  const who = profile ? `${profile.name} (@${profile.username})` : `@${username}`;
  const tab = list === 'blogs' ? undefined : TABS.find((t) => t.list === list)?.label;
  return tab ? `${tab} · ${who}` : who;
}

/**
 * 'User not found'; after 1 second the user is cleared, sent to / and the page reloads (SPEC.md 2).
 * Cleared only when the missing profile is the viewer's own (their account is gone): a reader
 * following a stale link or a typo to someone else's profile had been signed out of every tab.
 */
function UserNotFound({ own }: { own: boolean }) {
  const navigate = useNavigate();
  useEffect(() => {
    const timer = window.setTimeout(() => {
      if (own) useSession.getState().logout();
      navigate('/');
      window.location.reload();
    }, DELAYS_MS.userNotFoundRedirect);
    return () => window.clearTimeout(timer);
  }, [navigate, own]);
  return (
    <div className="mx-auto flex max-w-md flex-col items-center px-4 py-24 text-center">
      <UserX size={44} aria-hidden="true" className="text-gray-400" />
      <h1 className="mt-4 text-2xl font-bold text-gray-900 dark:text-gray-100">{PROFILE_TEXTS.notFound}</h1>
    </div>
  );
}

function Count({ value, label, onClick }: { value: number; label: string; onClick?: () => void }) {
  const body = (
    <>
      <span className="font-bold text-gray-900 dark:text-gray-100">{value}</span>{' '}
      <span className="text-gray-600 dark:text-gray-400">{label}</span>
    </>
  );
  if (!onClick) return <span className="text-sm">{body}</span>;
  return (
    <button type="button" onClick={onClick} className="rounded-md text-sm hover:underline" aria-haspopup="dialog">
      {body}
    </button>
  );
}

/** The profile of SPEC.md 2: /@{username} and its Saved, Liked and Drafts tabs. */
export function ProfileScreen({ username, list }: { username: string; list: ProfileList }) {
  const profile = useProfile(username);
  const signedIn = useSession((s) => Boolean(s.user.token));
  const ownName = useSession((s) => (s.user.token ? s.user.username?.toLowerCase() : undefined));
  const [modal, setModal] = useState<FollowDirection | null>(null);
  const closeModal = useCallback(() => setModal(null), []);
  const notFound = profile.error instanceof ApiError && profile.error.status === 404;
  usePageTitle(profileTitle(username, list, profile.data?.user, notFound));
  // 'User not found' or a load error; a shown profile waits for its list (ProfileBlogList).
  useServerPageReady(profile.isError);

  if (profile.isPending) return <ProfileSkeleton />;
  if (profile.isError) {
    if (notFound) return <UserNotFound own={ownName === username.toLowerCase()} />;
    return (
      <div className="mx-auto max-w-md px-4 py-24 text-center">
        <p role="alert" className="text-lg text-red-600 dark:text-red-400">
          {errorMessage(profile.error, PROFILE_TEXTS.loadFailed)}
        </p>
        <button type="button" onClick={() => void profile.refetch()} className={buttonClasses('secondary', 'md', 'mt-6')}>
          Try again
        </button>
      </div>
    );
  }

  const user = profile.data.user;
  const base = `/@${user.username}`;
  if (!canSee(user, list)) return <Navigate to={base} replace />;

  return (
    <div className="mx-auto max-w-6xl px-4 py-6 sm:py-8">
      <section
        aria-label="Profile"
        className="rounded-2xl border border-gray-200 bg-white p-5 sm:p-7 dark:border-gray-800 dark:bg-gray-900"
      >
        <div className="flex flex-col items-center gap-5 text-center sm:flex-row sm:items-start sm:text-left">
          <Avatar name={user.name} src={user.profilePic} size={104} className="ring-4 ring-indigo-50 dark:ring-indigo-500/20" />
          <div className="min-w-0 flex-1">
            <div className="flex flex-col items-center gap-3 sm:flex-row sm:items-start sm:justify-between">
              <div className="min-w-0">
                <h1 className="text-2xl font-bold wrap-anywhere text-gray-900 sm:text-3xl dark:text-gray-100">{user.name}</h1>
                <p className="wrap-anywhere text-gray-500 dark:text-gray-400">@{user.username}</p>
              </div>
              {user.isOwner ? (
                <Link to="/edit-profile" className={buttonClasses('secondary', 'md', 'shrink-0')}>
                  <Pencil size={16} aria-hidden="true" />
                  Edit Profile
                </Link>
              ) : (
                <div className="flex shrink-0 items-center gap-2">
                  {!user.isBlocked && <FollowButton userId={user._id} initial={user.isFollowing} />}
                  {signedIn && <ProfileMenu user={user} />}
                </div>
              )}
            </div>
            {user.bio && <p className="mt-3 max-w-2xl whitespace-pre-line wrap-anywhere text-gray-700 dark:text-gray-300">{user.bio}</p>}
            <div className="mt-4 flex flex-wrap justify-center gap-x-6 gap-y-2 sm:justify-start">
              <Count
                value={user.followerCount}
                label={user.followerCount === 1 ? 'Follower' : 'Followers'}
                onClick={() => setModal('followers')}
              />
              <Count value={user.followingCount} label="Following" onClick={() => setModal('following')} />
              <Count value={user.publishedCount} label={user.publishedCount === 1 ? 'Post' : 'Posts'} />
              <FeedLink
                scope={{ kind: 'author', username: user.username }}
                label={`Subscribe to ${user.name}'s posts: RSS feed`}
                className="-my-1"
              />
            </div>
          </div>
        </div>
      </section>

      <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_300px]">
        <div className="min-w-0">
          <nav aria-label="Profile tabs" className="mb-5 flex gap-1 overflow-x-auto border-b border-gray-200 dark:border-gray-800">
            {TABS.filter((t) => canSee(user, t.list)).map((t) => (
              <NavLink
                key={t.list}
                to={t.list === 'blogs' ? base : `${base}/${t.list}`}
                end
                className={({ isActive }) =>
                  `-mb-px shrink-0 border-b-2 px-4 py-2.5 text-sm font-medium transition-colors ${
                    isActive
                      ? 'border-indigo-600 text-indigo-600 dark:border-indigo-400 dark:text-indigo-400'
                      : 'border-transparent text-gray-600 hover:border-gray-300 hover:text-gray-900 dark:text-gray-400 dark:hover:text-gray-100'
                  }`
                }
              >
                {t.label}
              </NavLink>
            ))}
          </nav>
          {/* The cards' titles are h3: the list is the h2 that the tabs show. */}
          <h2 className="sr-only">{TABS.find((t) => t.list === list)?.label}</h2>
          <ProfileBlogList key={list} username={user.username} list={list} />
        </div>
        <ProfileSideCards profile={user} onViewFollowing={() => setModal('following')} />
      </div>

      <FollowListModal username={user.username} direction={modal} onClose={closeModal} />
    </div>
  );
}
