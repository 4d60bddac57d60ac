import { DEFAULT_THEME, THEMES, type Theme } from '@inkwell/core';
import { create } from 'zustand';
import { STORAGE_KEYS, storage } from './storage';

/** Theme rules of SPEC.md section 4. public/theme-init.js repeats `resolveTheme` for first paint. */
export type ResolvedTheme = 'light' | 'dark';
export type { Theme };

const DARK_QUERY = '(prefers-color-scheme: dark)';

export function parseTheme(raw: string | null): Theme {
  return (THEMES as readonly string[]).includes(raw ?? '') ? (raw as Theme) : DEFAULT_THEME;
}

/** Dark when the choice is dark, or it is system (or nothing saved) and the OS prefers dark. */
export function resolveTheme(theme: Theme, systemPrefersDark: boolean): ResolvedTheme {
  if (theme === 'system') return systemPrefersDark ? 'dark' : 'light';
  return theme;
}

function systemPrefersDark(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches;
}

function applyTheme(resolved: ResolvedTheme): void {
  document.documentElement.classList.toggle('dark', resolved === 'dark');
}

interface ThemeStore {
  /** The saved choice: light, dark or system. */
  theme: Theme;
  /** What is applied to the document now. */
  resolved: ResolvedTheme;
  setTheme: (theme: Theme) => void;
  /** Dark/light toggle of the top bar: saves the opposite of what is shown. */
  toggle: () => void;
}

const initialTheme = parseTheme(storage.get(STORAGE_KEYS.theme));

export const useTheme = create<ThemeStore>((set, get) => ({
  theme: initialTheme,
  resolved: resolveTheme(initialTheme, systemPrefersDark()),
  setTheme: (theme) => {
    storage.set(STORAGE_KEYS.theme, theme);
    const resolved = resolveTheme(theme, systemPrefersDark());
    applyTheme(resolved);
    set({ theme, resolved });
  },
  toggle: () => get().setTheme(get().resolved === 'dark' ? 'light' : 'dark'),
}));

/** Applies the current theme and follows OS changes live while the choice is 'system'. */
export function startThemeSync(): () => void {
  applyTheme(useTheme.getState().resolved);
  if (typeof window.matchMedia !== 'function') return () => {};
  const media = window.matchMedia(DARK_QUERY);
  const onChange = () => {
    const { theme } = useTheme.getState();
    if (theme !== 'system') return;
    const resolved = resolveTheme(theme, media.matches);
    applyTheme(resolved);
    useTheme.setState({ resolved });
  };
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORAGE_KEYS.theme) {
      const theme = parseTheme(event.newValue);
      const resolved = resolveTheme(theme, media.matches);
      applyTheme(resolved);
      useTheme.setState({ theme, resolved });
    }
  };
  media.addEventListener('change', onChange);
  window.addEventListener('storage', onStorage);
  return () => {
    media.removeEventListener('change', onChange);
    window.removeEventListener('storage', onStorage);
  };
}
