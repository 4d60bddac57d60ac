import { useEffect, useSyncExternalStore } from 'react';
import { useTheme } from '../lib/theme';
import { isToasterWanted, loadedToaster, loadSonner, subscribeToaster, wantToaster } from '../lib/toast';

/**
 * The one Toaster, mounted on the first toast or once the browser is idle after the first load.
 * Its chunk may fail to load (offline before it was fetched): it is asked for again on the next
 * toast or when the browser is back online, and lib/toast shows a plain message meanwhile.
 */
export function Toasts() {
  const wanted = useSyncExternalStore(subscribeToaster, isToasterWanted, () => false);
  const Toaster = useSyncExternalStore(subscribeToaster, loadedToaster, () => null);
  const theme = useTheme((s) => s.resolved);

  useEffect(() => {
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(wantToaster, { timeout: 4000 });
      return () => window.cancelIdleCallback(id);
    }
    const id = window.setTimeout(wantToaster, 2000);
    return () => window.clearTimeout(id);
  }, []);

  useEffect(() => {
    if (!wanted || Toaster) return;
    const load = () => void loadSonner().catch(() => undefined);
    load();
    window.addEventListener('online', load);
    return () => window.removeEventListener('online', load);
  }, [wanted, Toaster]);

  if (!wanted || !Toaster) return null;
  return <Toaster position="top-center" offset={76} mobileOffset={72} theme={theme} richColors closeButton />;
}
