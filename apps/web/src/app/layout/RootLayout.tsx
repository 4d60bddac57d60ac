import { Suspense, useEffect, useRef, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { ErrorBoundary } from '../../components/ui/ErrorBoundary';
import { PageSpinner } from '../../components/ui/Spinner';
import { hasServerPage, releaseServerPage } from '../../lib/server-page';
import { Footer } from './Footer';
import { Navbar } from './Navbar';
import { PageLoadError } from './PageLoadError';

/** Long enough for the old screen to have gone (and the link that moved with it). */
const FOCUS_AFTER_MS = 100;
/**
 * A screen names itself once its data came, after a loading name perhaps ('Loading blog'): the
 * title said is the first that stays this long, or the one there at ANNOUNCE_BY_MS.
 */
const TITLE_SETTLED_MS = 500;
const ANNOUNCE_BY_MS = 3000;

/**
 * Every page: skip link, fixed top bar, the lazy screen (spinner while it loads), footer. A move
 * to another page is said to screen readers (its title, in a polite live region), and when the
 * link or menu that moved there went with the old page, the keyboard's focus goes to the new
 * page's content: it had fallen to <body>, so the next Tab started from the top of the page.
 */
export function RootLayout() {
  const { pathname } = useLocation();
  const firstPath = useRef(pathname);
  const moved = useRef(false);
  const mainRef = useRef<HTMLElement>(null);
  const [announcement, setAnnouncement] = useState('');
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll to the top whenever the path changes
  useEffect(() => {
    // The server page of the first path may have been scrolled already: it keeps its place.
    if (pathname === firstPath.current && hasServerPage()) return;
    // Another page than the server rendered: the app shows it.
    releaseServerPage();
    window.scrollTo(0, 0);
  }, [pathname]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per page the reader moves to
  useEffect(() => {
    if (!moved.current) {
      // The page the tab opened on is not a move: the browser reads it out itself.
      moved.current = true;
      return;
    }
    // Emptied first, so a page of the same title as the last is said too.
    setAnnouncement('');
    const before = document.title;
    const focusTimer = window.setTimeout(() => {
      const active = document.activeElement;
      if (!active || active === document.body || !active.isConnected) mainRef.current?.focus({ preventScroll: true });
    }, FOCUS_AFTER_MS);
    let settled: number | undefined;
    const announce = () => {
      observer.disconnect();
      window.clearTimeout(settled);
      window.clearTimeout(lastChance);
      setAnnouncement(document.title);
    };
    const observer = new MutationObserver(() => {
      if (document.title === before) return;
      window.clearTimeout(settled);
      settled = window.setTimeout(announce, TITLE_SETTLED_MS);
    });
    observer.observe(document.head, { childList: true, subtree: true, characterData: true });
    const lastChance = window.setTimeout(announce, ANNOUNCE_BY_MS);
    return () => {
      window.clearTimeout(focusTimer);
      window.clearTimeout(settled);
      window.clearTimeout(lastChance);
      observer.disconnect();
    };
  }, [pathname]);

  return (
    <div className="flex min-h-screen flex-col">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <Navbar />
      <main ref={mainRef} id="main" tabIndex={-1} className="flex-1 pt-16 outline-none">
        <ErrorBoundary resetKey={pathname} fallback={<PageLoadError />}>
          <Suspense fallback={<PageSpinner />}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </main>
      <Footer />
      <p aria-live="polite" aria-atomic="true" className="sr-only" data-testid="page-announcer">
        {announcement}
      </p>
    </div>
  );
}
