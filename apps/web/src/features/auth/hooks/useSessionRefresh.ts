import { useEffect } from 'react';
import { queryClient } from '../../../lib/queryClient';
import { useIsSignedIn, useSession } from '../../../lib/session';
import { useMe } from '../api/me';

/**
 * Once per app load with a stored token: refreshes the session from /me (login merges).
 * A revoked or expired token answers 401, and the api client then clears the session.
 * An answer asked before this tab changed the session (a privacy choice or a profile edit made
 * while /me was on its way) would undo that change: it is asked again instead.
 */
export function useSessionRefresh(): void {
  const signedIn = useIsSignedIn();
  const { data } = useMe(signedIn);
  const login = useSession((s) => s.login);
  useEffect(() => {
    if (!data?.user) return;
    if (data.sentAt < useSession.getState().changedAt) void queryClient.invalidateQueries({ queryKey: ['me'] });
    else login(data.user);
  }, [data, login]);
}
