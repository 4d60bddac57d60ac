import { Bell } from 'lucide-react';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ErrorBoundary } from '../../components/ui/ErrorBoundary';

/** Loaded only once someone is signed in: the bell menu, the notification queries and the realtime socket. */
const loadBellMenu = () => import('../../features/notifications/components/BellMenu');

/** Bell of the top bar with the unread badge and the notification dropdown (SPEC.md 2). */
export function NotificationBell() {
  // A new lazy component on retry: React.lazy keeps a failed import for good.
  const [BellMenu, setBellMenu] = useState(() => lazy(loadBellMenu));
  const link = (
    <Link to="/notifications" aria-label="Notifications" title="Notifications" className="icon-button">
      <Bell size={20} aria-hidden="true" />
    </Link>
  );
  // The menu's file not fetched (offline): the bell stays a link to the notifications page, and
  // the menu is fetched again once the browser is back online.
  return (
    <ErrorBoundary
      resetKey={BellMenu}
      fallback={<RetryWhenOnline onRetry={() => setBellMenu(() => lazy(loadBellMenu))}>{link}</RetryWhenOnline>}
    >
      <Suspense fallback={link}>
        <BellMenu />
      </Suspense>
    </ErrorBoundary>
  );
}

function RetryWhenOnline({ onRetry, children }: { onRetry: () => void; children: React.ReactNode }) {
  // One listener for as long as the fallback shows, calling the newest onRetry (a new function each render).
  const latest = useRef(onRetry);
  latest.current = onRetry;
  useEffect(() => {
    const retry = () => latest.current();
    window.addEventListener('online', retry);
    return () => window.removeEventListener('online', retry);
  }, []);
  return children;
}
