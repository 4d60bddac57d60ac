import { Menu, PenLine, Search, X } from 'lucide-react';
import { useCallback, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { buttonClasses } from '../../components/ui/Button';
import { useDismiss } from '../../hooks/useDismiss';
import { useIsSignedIn } from '../../lib/session';
import { AccountMenu } from './AccountMenu';
import { Logo } from './Logo';
import { MobileMenu } from './MobileMenu';
import { NavSearch } from './NavSearch';
import { NotificationBell } from './NotificationBell';
import { ThemeToggle } from './ThemeToggle';

/** The fixed top navigation bar of every page (SPEC.md 2). Mobile layout below 768 px. */
export function Navbar() {
  const signedIn = useIsSignedIn();
  const { pathname } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const [searchOpen, setSearchOpen] = useState(false);
  const menuRef = useRef<HTMLDivElement>(null);
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  const searchRef = useRef<HTMLDivElement>(null);
  const searchButtonRef = useRef<HTMLButtonElement>(null);
  const closeMenu = useCallback(() => setMenuOpen(false), []);
  const closeSearch = useCallback(() => setSearchOpen(false), []);
  useDismiss(menuOpen, closeMenu, [menuRef, menuButtonRef], menuButtonRef);
  useDismiss(searchOpen, closeSearch, [searchRef, searchButtonRef], searchButtonRef);

  // Menus close when the page changes (state reset during render, no effect needed).
  const [shownPath, setShownPath] = useState(pathname);
  if (shownPath !== pathname) {
    setShownPath(pathname);
    setMenuOpen(false);
    setSearchOpen(false);
  }

  return (
    <header className="fixed inset-x-0 top-0 z-40 border-b border-gray-200 bg-white/90 backdrop-blur dark:border-gray-800 dark:bg-gray-950/90">
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-6xl items-center gap-3 px-4">
        <Logo />
        <NavSearch id="nav-search" className="mx-4 hidden max-w-md flex-1 md:block" />
        <div className="ml-auto hidden items-center gap-2 md:flex">
          {signedIn ? (
            <>
              <Link to="/add-blog" className={buttonClasses('primary', 'md')}>
                <PenLine size={16} aria-hidden="true" />
                Write
              </Link>
              <NotificationBell />
              <ThemeToggle />
              <AccountMenu />
            </>
          ) : (
            <>
              <ThemeToggle />
              <Link to="/signin" className={buttonClasses('ghost', 'md')}>
                Sign In
              </Link>
              <Link to="/signup" className={buttonClasses('primary', 'md')}>
                Sign Up
              </Link>
            </>
          )}
        </div>
        <div className="ml-auto flex items-center gap-1 md:hidden">
          <button
            ref={searchButtonRef}
            type="button"
            aria-label={searchOpen ? 'Close search' : 'Search'}
            aria-expanded={searchOpen}
            aria-controls="mobile-search"
            onClick={() => {
              setSearchOpen((o) => !o);
              setMenuOpen(false);
            }}
            className="icon-button"
          >
            {searchOpen ? <X size={20} aria-hidden="true" /> : <Search size={20} aria-hidden="true" />}
          </button>
          {signedIn && <NotificationBell />}
          <button
            ref={menuButtonRef}
            type="button"
            aria-label={menuOpen ? 'Close menu' : 'Open menu'}
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
            onClick={() => {
              setMenuOpen((o) => !o);
              setSearchOpen(false);
            }}
            className="icon-button"
          >
            {menuOpen ? <X size={22} aria-hidden="true" /> : <Menu size={22} aria-hidden="true" />}
          </button>
        </div>
      </nav>
      {searchOpen && (
        <div ref={searchRef} id="mobile-search" className="border-t border-gray-200 px-4 py-3 md:hidden dark:border-gray-800">
          <NavSearch id="nav-search-mobile" autoFocus onSearched={closeSearch} />
        </div>
      )}
      {menuOpen && (
        <div ref={menuRef}>
          <MobileMenu id="mobile-menu" signedIn={signedIn} onClose={closeMenu} />
        </div>
      )}
    </header>
  );
}
