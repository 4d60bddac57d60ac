import { KeyRound, type LucideIcon, Palette, Shield, UserCog } from 'lucide-react';
import { type KeyboardEvent, useId, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { useSession } from '../../../lib/session';
import { AccountSettings } from './AccountSettings';
import { BlockedAndMuted } from './BlockedAndMuted';
import { ChangePasswordForm } from './ChangePasswordForm';
import { DigestSettings } from './DigestSettings';
import { InterfaceSettings } from './InterfaceSettings';
import { PrivacySettings } from './PrivacySettings';

type TabKey = 'privacy' | 'interface' | 'password' | 'account';

const TABS: { key: TabKey; label: string; Icon: LucideIcon }[] = [
  { key: 'privacy', label: 'Privacy Settings', Icon: Shield },
  { key: 'interface', label: 'Interface Preferences', Icon: Palette },
  { key: 'password', label: 'Change Password', Icon: KeyRound },
  { key: 'account', label: 'Account', Icon: UserCog },
];

/** Settings (SPEC.md 2): Privacy, Interface, Change Password (not for Google accounts) and Account tabs. */
export function SettingsScreen() {
  const googleAuth = useSession((s) => s.user.googleAuth);
  const tabs = TABS.filter((t) => !(googleAuth && t.key === 'password'));
  const [params, setParams] = useSearchParams();
  const active = tabs.find((t) => t.key === params.get('tab'))?.key ?? 'privacy';
  const ids = useId();
  const listRef = useRef<HTMLDivElement>(null);

  const select = (key: TabKey) => setParams(key === 'privacy' ? {} : { tab: key }, { replace: true });

  // Arrow keys move between tabs (ARIA tabs pattern).
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const focused = tabs.findIndex((t) => document.activeElement?.id === `${ids}-${t.key}`);
    const index = focused >= 0 ? focused : tabs.findIndex((t) => t.key === active);
    const step = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 }[event.key];
    if (step === undefined) return;
    event.preventDefault();
    const next = tabs[(index + step + tabs.length) % tabs.length]!;
    select(next.key);
    listRef.current?.querySelector<HTMLElement>(`#${CSS.escape(`${ids}-${next.key}`)}`)?.focus();
  };

  return (
    <section className="mx-auto max-w-5xl px-4 py-8 sm:py-10">
      <h1 className="text-2xl font-bold text-gray-900 sm:text-3xl dark:text-gray-100">Settings</h1>
      <div className="mt-6 grid gap-6 md:grid-cols-[240px_minmax(0,1fr)]">
        <div
          ref={listRef}
          role="tablist"
          aria-label="Settings"
          aria-orientation="vertical"
          onKeyDown={onKeyDown}
          className="grid grid-cols-2 gap-1 md:flex md:flex-col"
        >
          {tabs.map(({ key, label, Icon }) => {
            const selected = key === active;
            return (
              <button
                key={key}
                id={`${ids}-${key}`}
                type="button"
                role="tab"
                aria-selected={selected}
                aria-controls={`${ids}-${key}-panel`}
                tabIndex={selected ? 0 : -1}
                onClick={() => select(key)}
                className={`flex items-center gap-2 rounded-lg px-3 py-2.5 text-left text-sm font-medium transition-colors md:gap-3 md:px-4 ${
                  selected
                    ? 'bg-indigo-50 text-indigo-700 dark:bg-indigo-500/15 dark:text-indigo-300'
                    : 'text-gray-700 hover:bg-gray-100 dark:text-gray-300 dark:hover:bg-gray-800'
                } ${key === 'account' && !selected ? 'md:text-red-600 md:dark:text-red-400' : ''}`}
              >
                <Icon size={18} aria-hidden="true" className="shrink-0" />
                {label}
              </button>
            );
          })}
        </div>
        <div
          id={`${ids}-${active}-panel`}
          role="tabpanel"
          aria-labelledby={`${ids}-${active}`}
          className="min-w-0 rounded-2xl border border-gray-200 bg-white p-5 sm:p-7 dark:border-gray-800 dark:bg-gray-900"
        >
          {active === 'privacy' && (
            <div className="space-y-8">
              <PrivacySettings />
              <div className="border-t border-gray-200 pt-6 dark:border-gray-800">
                <DigestSettings />
              </div>
              <div className="border-t border-gray-200 pt-6 dark:border-gray-800">
                <BlockedAndMuted />
              </div>
            </div>
          )}
          {active === 'interface' && <InterfaceSettings />}
          {active === 'password' && <ChangePasswordForm />}
          {active === 'account' && <AccountSettings />}
        </div>
      </div>
    </section>
  );
}
