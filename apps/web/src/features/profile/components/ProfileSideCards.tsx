import { longDate, type Profile } from '@inkwell/core';
import { CalendarDays } from 'lucide-react';
import { Link } from 'react-router';
import { Avatar } from '../../../components/ui/Avatar';

const card = 'rounded-xl border border-gray-200 bg-white p-5 dark:border-gray-800 dark:bg-gray-900';
const heading = 'text-sm font-semibold tracking-wide text-gray-500 uppercase dark:text-gray-400';

/** Activity Stats, Following (first 5 and 'View all (n)') and Member Since (SPEC.md 2 Profile). */
export function ProfileSideCards({ profile, onViewFollowing }: { profile: Profile; onViewFollowing: () => void }) {
  const stats = [
    { label: 'Published', value: profile.publishedCount },
    ...(profile.isOwner && profile.draftCount !== null ? [{ label: 'Drafts', value: profile.draftCount }] : []),
    { label: 'Liked', value: profile.likedCount },
    { label: 'Saved', value: profile.savedCount },
  ];
  return (
    <aside className="space-y-5">
      <section aria-labelledby="activity-stats" className={card}>
        <h2 id="activity-stats" className={heading}>
          Activity Stats
        </h2>
        <dl className="mt-3 divide-y divide-gray-100 dark:divide-gray-800">
          {stats.map((s) => (
            <div key={s.label} className="flex items-center justify-between py-2 text-sm">
              <dt className="text-gray-600 dark:text-gray-400">{s.label}</dt>
              <dd className="font-semibold text-gray-900 dark:text-gray-100">{s.value}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section aria-labelledby="following-card" className={card}>
        <h2 id="following-card" className={heading}>
          Following
        </h2>
        {profile.followingPreview.length === 0 ? (
          <p className="mt-3 text-sm text-gray-500 dark:text-gray-400">Not following anyone yet</p>
        ) : (
          <>
            <ul className="mt-3 space-y-3">
              {profile.followingPreview.map((user) => (
                <li key={user._id}>
                  <Link to={`/@${user.username}`} className="group flex items-center gap-3">
                    <Avatar name={user.name} src={user.profilePic} size={34} />
                    <span className="min-w-0">
                      <span className="block truncate text-sm font-medium text-gray-900 group-hover:underline dark:text-gray-100">
                        {user.name}
                      </span>
                      <span className="block truncate text-xs text-gray-500 dark:text-gray-400">@{user.username}</span>
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
            <button
              type="button"
              onClick={onViewFollowing}
              className="mt-4 text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400"
            >
              View all ({profile.followingCount})
            </button>
          </>
        )}
      </section>

      <section aria-labelledby="member-since" className={card}>
        <h2 id="member-since" className={heading}>
          Member Since
        </h2>
        <p className="mt-3 flex items-center gap-2 text-sm font-medium text-gray-900 dark:text-gray-100">
          <CalendarDays size={16} aria-hidden="true" className="text-indigo-600 dark:text-indigo-400" />
          <time dateTime={profile.createdAt}>{longDate(profile.createdAt)}</time>
        </p>
      </section>
    </aside>
  );
}
