import { DELAYS_MS } from '@inkwell/core';
import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { useSession } from '../../../lib/session';
import { clearTabDrafts } from '../../../lib/tabDrafts';

/**
 * Logout of the top bar (SPEC.md 2): 'Logging out...' while running; after 1 second clears
 * the user, closes menus (onDone), goes to / and reloads the page.
 */
export function useLogout(onDone?: () => void) {
  const [loggingOut, setLoggingOut] = useState(false);
  const navigate = useNavigate();
  const logout = useCallback(() => {
    if (loggingOut) return;
    setLoggingOut(true);
    window.setTimeout(() => {
      useSession.getState().logout();
      clearTabDrafts();
      onDone?.();
      navigate('/');
      window.location.reload();
    }, DELAYS_MS.logout);
  }, [loggingOut, navigate, onDone]);
  return { logout, loggingOut };
}
