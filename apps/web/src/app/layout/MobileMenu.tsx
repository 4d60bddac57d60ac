import { LogIn, LogOut, PenLine, Settings, Shield, User, UserPlus } from 'lucide-react';
import { Link } from 'react-router';
import { useLogout } from '../../features/auth/hooks/useLogout';
import { useRole } from '../../features/auth/hooks/useRole';
import { canModerate, useSession } from '../../lib/session';
import { ThemeToggle } from './ThemeToggle';

interface MobileMenuProps {
  id: string;
  signedIn: boolean;
  onClose: () => void;
}

/** Panel of the mobile menu toggle: Write Article, Profile, Settings, theme, Logout (or Sign In/Up). */
export function MobileMenu({ id, signedIn, onClose }: MobileMenuProps) {
  const user = useSession((s) => s.user);
  const role = useRole();
  const { logout, loggingOut } = useLogout(onClose);

  return (
    <div id={id} className="border-t border-gray-200 bg-white px-2 py-2 shadow-lg md:hidden dark:border-gray-800 dark:bg-gray-950">
      {signedIn ? (
        <>
          <div className="px-4 py-2">
            <p className="truncate font-semibold text-gray-900 dark:text-gray-100">{user.name}</p>
            <p className="truncate text-sm text-gray-500 dark:text-gray-400">@{user.username}</p>
          </div>
          <Link to="/add-blog" onClick={onClose} className="menu-row">
            <PenLine size={18} aria-hidden="true" />
            Write Article
          </Link>
          <Link to={`/@${user.username ?? ''}`} onClick={onClose} className="menu-row">
            <User size={18} aria-hidden="true" />
            Profile
          </Link>
          <Link to="/setting" onClick={onClose} className="menu-row">
            <Settings size={18} aria-hidden="true" />
            Settings
          </Link>
          {canModerate(role) && (
            <Link to="/moderation" onClick={onClose} className="menu-row">
              <Shield size={18} aria-hidden="true" />
              Moderation
            </Link>
          )}
          <ThemeToggle variant="row" />
          <button type="button" onClick={logout} disabled={loggingOut} className="menu-row text-red-600 dark:text-red-400">
            <LogOut size={18} aria-hidden="true" />
            {loggingOut ? 'Logging out...' : 'Logout'}
          </button>
        </>
      ) : (
        <>
          <Link to="/signin" onClick={onClose} className="menu-row">
            <LogIn size={18} aria-hidden="true" />
            Sign In
          </Link>
          <Link to="/signup" onClick={onClose} className="menu-row">
            <UserPlus size={18} aria-hidden="true" />
            Sign Up
          </Link>
          <ThemeToggle variant="row" />
        </>
      )}
    </div>
  );
}
