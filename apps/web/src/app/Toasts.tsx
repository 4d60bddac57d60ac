import { lazy, Suspense, useEffect, useSyncExternalStore } from 'react';
import { useTheme } from '../lib/theme';
import { isToasterWanted, loadSonner, subscribeToaster, wantToaster } from '../lib/toast';

const Toaster = lazy(() => loadSonner().then((m) => ({ default: m.Toaster })));

/** The one Toaster, mounted on the first toast or once the browser is idle after the first load. */
export function Toasts() {
  const wanted = useSyncExternalStore(subscribeToaster, isToasterWanted, () => false);
  const theme = useTheme((s) => s.resolved);

  useEffect(() => {
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(wantToaster, { timeout: 4000 });
      return () => window.cancelIdleCallback(id);
    }
    const id = window.setTimeout(wantToaster, 2000);
    return () => window.clearTimeout(id);
  }, []);

  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Toaster position="top-center" offset={76} mobileOffset={72} theme={theme} richColors closeButton />
    </Suspense>
  );
}
