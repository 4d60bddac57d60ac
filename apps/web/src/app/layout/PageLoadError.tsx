import { useLayoutEffect } from 'react';
import { buttonClasses } from '../../components/ui/Button';
import { usePageTitle } from '../../hooks/usePageTitle';
import { holdServerPage } from '../../lib/server-page';

/**
 * A screen that failed to load or to render (RootLayout's boundary): its code could not be fetched
 * (offline, or the site was updated since the tab opened and the old files are gone) or it threw.
 * The bar and footer stay; the next path starts afresh. A server-rendered first page stays in
 * place: it still shows the content.
 */
export function PageLoadError() {
  usePageTitle('Page could not be loaded');
  useLayoutEffect(holdServerPage, []);
  const offline = !navigator.onLine;
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <h1 className="text-2xl font-bold text-gray-900 dark:text-gray-100">This page could not be loaded</h1>
      <p role="alert" className="mt-2 text-gray-600 dark:text-gray-400">
        {offline
          ? 'You are offline. Check your connection and try again.'
          : 'The connection failed, or Inkwell was updated since this tab was opened. Loading the page again usually fixes it.'}
      </p>
      <button type="button" onClick={() => window.location.reload()} className={buttonClasses('primary', 'md', 'mt-8')}>
        Try again
      </button>
    </section>
  );
}
