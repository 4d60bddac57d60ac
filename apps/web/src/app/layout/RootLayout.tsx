import { Suspense, useEffect, useRef } from 'react';
import { Outlet, useLocation } from 'react-router';
import { ErrorBoundary } from '../../components/ui/ErrorBoundary';
import { PageSpinner } from '../../components/ui/Spinner';
import { hasServerPage, releaseServerPage } from '../../lib/server-page';
import { Footer } from './Footer';
import { Navbar } from './Navbar';
import { PageLoadError } from './PageLoadError';

/** Every page: skip link, fixed top bar, the lazy screen (spinner while it loads), footer. */
export function RootLayout() {
  const { pathname } = useLocation();
  const firstPath = useRef(pathname);
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll to the top whenever the path changes
  useEffect(() => {
    // The server page of the first path may have been scrolled already: it keeps its place.
    if (pathname === firstPath.current && hasServerPage()) return;
    // Another page than the server rendered: the app shows it.
    releaseServerPage();
    window.scrollTo(0, 0);
  }, [pathname]);

  return (
    <div className="flex min-h-screen flex-col">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <Navbar />
      <main id="main" tabIndex={-1} className="flex-1 pt-16 outline-none">
        <ErrorBoundary resetKey={pathname} fallback={<PageLoadError />}>
          <Suspense fallback={<PageSpinner />}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </main>
      <Footer />
    </div>
  );
}
