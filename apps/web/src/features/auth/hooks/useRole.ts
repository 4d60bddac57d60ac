import { isSignedIn, type UserRole } from '@inkwell/core';
import { useSession } from '../../../lib/session';
import { useMe } from '../api/me';

/**
 * The signed-in user's role (issue 15) from GET /me, which the app reads once per load anyway
 * (useSessionRefresh shares the query); null while it loads, for a visitor, or when the cached
 * answer is still another account's. It only decides what to show: the server checks every call.
 */
export function useRole(): UserRole | null {
  const session = useSession((s) => s.user);
  const signedIn = isSignedIn(session);
  const { data } = useMe(signedIn);
  const user = data?.user;
  if (!signedIn || !user || user._id !== (session._id ?? session.id)) return null;
  return user.role ?? null;
}
