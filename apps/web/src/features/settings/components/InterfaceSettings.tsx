import type { Theme } from '@inkwell/core';
import { SelectField } from '../../../components/ui/Field';
import { useTheme } from '../../../lib/theme';
import { toast } from '../../../lib/toast';

const OPTIONS: { value: Theme; label: string }[] = [
  { value: 'light', label: 'Light Mode' },
  { value: 'dark', label: 'Dark Mode' },
  { value: 'system', label: 'System Default' },
];

/** Interface Preferences: the theme choice and what is applied now (SPEC.md 2, 4). */
export function InterfaceSettings() {
  const theme = useTheme((s) => s.theme);
  const resolved = useTheme((s) => s.resolved);
  const setTheme = useTheme((s) => s.setTheme);

  return (
    <div className="space-y-6">
      <header>
        <h2 className="text-lg font-semibold text-gray-900 dark:text-gray-100">Interface Preferences</h2>
        <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">Pick how Inkwell looks on this device.</p>
      </header>
      <SelectField
        id="interface-theme"
        label="Theme"
        value={theme}
        options={OPTIONS}
        onChange={(value) => {
          const next = OPTIONS.find((o) => o.value === value)?.value ?? 'system';
          setTheme(next);
          toast.success(`Theme set to ${next}`);
        }}
      />
      <p className="text-sm text-gray-600 dark:text-gray-400" data-testid="applied-theme">
        Currently applied: <span className="font-semibold text-gray-900 dark:text-gray-100">{resolved === 'dark' ? 'Dark' : 'Light'}</span>
        {theme === 'system' && ' (following your system)'}
      </p>
    </div>
  );
}
