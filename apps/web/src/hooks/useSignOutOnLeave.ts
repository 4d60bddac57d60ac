import { useCallback, useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { useSession } from '../lib/session';

/**
 * Clears the session once this screen has been left (SPEC.md 4: password change, deletion and
 * transfer clear the session and redirect). Clearing it first would let the signed-in-only route
 * redirect to /signin before the navigation to / lands, since navigations render as transitions.
 */
export function useSignOutOnLeave() {
  const navigate = useNavigate();
  const armed = useRef(false);

  useEffect(
    () => () => {
      if (!armed.current) return;
      armed.current = false;
      useSession.getState().logout();
    },
    [],
  );

  /** Signs out whenever the screen is left from now on. */
  const arm = useCallback(() => {
    armed.current = true;
  }, []);

  /** Goes to `to` and signs out as this screen unmounts. */
  const leave = useCallback(
    (to: string) => {
      armed.current = true;
      navigate(to);
    },
    [navigate],
  );

  return { arm, leave };
}
