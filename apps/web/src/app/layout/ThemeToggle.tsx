import { Moon, Sun } from 'lucide-react';
import { useTheme } from '../../lib/theme';

/**
 * Dark/light toggle. The icon button (desktop) is labelled 'Switch to light mode' /
 * 'Switch to dark mode'; the menu row (mobile) reads 'Light Mode' / 'Dark Mode'.
 */
export function ThemeToggle({ variant = 'icon' }: { variant?: 'icon' | 'row' }) {
  const dark = useTheme((s) => s.resolved === 'dark');
  const toggle = useTheme((s) => s.toggle);
  const label = dark ? 'Switch to light mode' : 'Switch to dark mode';
  const Icon = dark ? Sun : Moon;

  if (variant === 'row') {
    return (
      <button type="button" onClick={toggle} className="menu-row" title={label}>
        <Icon size={18} aria-hidden="true" />
        {dark ? 'Light Mode' : 'Dark Mode'}
      </button>
    );
  }
  return (
    <button type="button" onClick={toggle} aria-label={label} title={label} className="icon-button">
      <Icon size={20} aria-hidden="true" />
    </button>
  );
}
