import { LogOut, Settings, Shield, User } from 'lucide-react';
import { useCallback, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Avatar } from '../../components/ui/Avatar';
import { useLogout } from '../../features/auth/hooks/useLogout';
import { useRole } from '../../features/auth/hooks/useRole';
import { useDismiss } from '../../hooks/useDismiss';
import { useMenuKeys } from '../../hooks/useMenuKeys';
import { canModerate, useSession } from '../../lib/session';

/** Avatar menu of the top bar: display name, @username, Profile, Settings, Moderation (moderators and admins), Logout. */
export function AccountMenu() {
  const user = useSession((s) => s.user);
  const role = useRole();
  const [open, setOpen] = useState(false);
  const close = useCallback(() => setOpen(false), []);
  const { logout, loggingOut } = useLogout(close);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const menuId = useId();
  useDismiss(open, close, [buttonRef, menuRef], buttonRef);
  const onMenuKeyDown = useMenuKeys(open, menuRef, close);

  return (
    <div className="relative">
      <button
        ref={buttonRef}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((o) => !o)}
        className="flex rounded-full ring-offset-2 transition hover:ring-2 hover:ring-indigo-300 dark:ring-offset-gray-900 dark:hover:ring-indigo-700"
      >
        {/* Named by its content, 'Account menu' and the person's name, of which the avatar shows the initials. */}
        <span className="sr-only">Account menu</span>
        <Avatar name={user.name} src={user.profilePic} size={36} />
      </button>
      {open && (
        <div
          ref={menuRef}
          id={menuId}
          role="menu"
          aria-label="Account"
          tabIndex={-1}
          onKeyDown={onMenuKeyDown}
          className="absolute right-0 mt-2 w-60 overflow-hidden rounded-xl border border-gray-200 bg-white py-2 shadow-lg dark:border-gray-800 dark:bg-gray-900"
        >
          <div role="none" className="border-b border-gray-100 px-4 pt-1 pb-3 dark:border-gray-800">
            <p className="truncate font-semibold text-gray-900 dark:text-gray-100">{user.name}</p>
            <p className="truncate text-sm text-gray-500 dark:text-gray-400">@{user.username}</p>
          </div>
          <Link role="menuitem" to={`/@${user.username ?? ''}`} onClick={close} className="menu-row">
            <User size={18} aria-hidden="true" />
            Profile
          </Link>
          <Link role="menuitem" to="/setting" onClick={close} className="menu-row">
            <Settings size={18} aria-hidden="true" />
            Settings
          </Link>
          {canModerate(role) && (
            <Link role="menuitem" to="/moderation" onClick={close} className="menu-row">
              <Shield size={18} aria-hidden="true" />
              Moderation
            </Link>
          )}
          <button role="menuitem" type="button" onClick={logout} disabled={loggingOut} className="menu-row text-red-600 dark:text-red-400">
            <LogOut size={18} aria-hidden="true" />
            {loggingOut ? 'Logging out...' : 'Logout'}
          </button>
        </div>
      )}
    </div>
  );
}
