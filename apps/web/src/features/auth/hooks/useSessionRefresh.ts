import { useEffect } from 'react';
import { useIsSignedIn, useSession } from '../../../lib/session';
import { useMe } from '../api/me';

/**
 * Once per app load with a stored token: refreshes the session from /me (login merges).
 * A revoked or expired token answers 401, and the api client then clears the session.
 */
export function useSessionRefresh(): void {
  const signedIn = useIsSignedIn();
  const { data } = useMe(signedIn);
  const login = useSession((s) => s.login);
  useEffect(() => {
    if (data?.user) login(data.user);
  }, [data, login]);
}
