import { useParams } from 'react-router';
import type { ProfileList } from '../features/profile/api/profile';
import { ProfileScreen } from '../features/profile/components/ProfileScreen';
import NotFoundPage from './NotFoundPage';

/** Profile tabs of SPEC.md 2: /@{username} (published) and these sub-paths. */
export const PROFILE_TABS = {
  'saved-blogs': 'Saved',
  'liked-blogs': 'Liked',
  'draft-blogs': 'Drafts',
} as const;

type ProfileTab = keyof typeof PROFILE_TABS;

function isProfileTab(tab: string): tab is ProfileTab {
  return Object.hasOwn(PROFILE_TABS, tab);
}

/** Profile (/@{username}[/tab]). Other '/:x' paths are not found. */
export default function ProfilePage() {
  const { handle = '', tab } = useParams();
  if (!handle.startsWith('@') || handle.length < 2 || (tab !== undefined && !isProfileTab(tab))) {
    return <NotFoundPage />;
  }
  const username = handle.slice(1);
  const list: ProfileList = tab && isProfileTab(tab) ? tab : 'blogs';
  // Keyed by person: open modals and follow state never carry over to another profile.
  return <ProfileScreen key={username.toLowerCase()} username={username} list={list} />;
}
