import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useIsSignedIn } from '../lib/session';

/**
 * Screens that need a token redirect to /signin without one (SPEC.md 2); the screen (with its query,
 * e.g. /setting?tab=password) goes along as router state `from`, and sign-in returns there.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const signedIn = useIsSignedIn();
  const location = useLocation();
  if (!signedIn) return <Navigate to="/signin" replace state={{ from: `${location.pathname}${location.search}${location.hash}` }} />;
  return <>{children}</>;
}
