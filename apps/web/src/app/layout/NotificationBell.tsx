import { Bell } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { ErrorBoundary } from '../../components/ui/ErrorBoundary';

/** Loaded only once someone is signed in: the bell menu, the notification queries and the realtime socket. */
const BellMenu = lazy(() => import('../../features/notifications/components/BellMenu'));

/** Bell of the top bar with the unread badge and the notification dropdown (SPEC.md 2). */
export function NotificationBell() {
  const link = (
    <Link to="/notifications" aria-label="Notifications" title="Notifications" className="icon-button">
      <Bell size={20} aria-hidden="true" />
    </Link>
  );
  // The menu's file not fetched (offline): the bell stays a link to the notifications page.
  return (
    <ErrorBoundary fallback={link}>
      <Suspense fallback={link}>
        <BellMenu />
      </Suspense>
    </ErrorBoundary>
  );
}
