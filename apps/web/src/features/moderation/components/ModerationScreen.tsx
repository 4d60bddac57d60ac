import { HIDDEN_LIST_KINDS, type HiddenListKind, type UserRole } from '@inkwell/core';
import { Inbox, ShieldOff } from 'lucide-react';
import { type KeyboardEvent, useEffect, useId, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { buttonClasses } from '../../../components/ui/Button';
import { ApiError } from '../../../lib/api';
import { canModerate } from '../../../lib/session';
import { useAuditLog, useReportGroups } from '../api/moderation';
import { MODERATION_TEXTS } from '../texts';
import { AuditLog } from './AuditLog';
import { HiddenList } from './HiddenList';
import { ListState, LoadMore } from './ListState';
import { ReportGroupCard } from './ReportGroupCard';
import { RolesForm } from './RolesForm';

type Tab = 'reports' | 'audit' | 'hidden' | 'roles';
const TABS: { value: Tab; label: string; adminOnly?: boolean }[] = [
  { value: 'reports', label: MODERATION_TEXTS.reportsTab },
  { value: 'audit', label: MODERATION_TEXTS.auditTab },
  { value: 'hidden', label: MODERATION_TEXTS.hiddenTab },
  { value: 'roles', label: MODERATION_TEXTS.rolesTab, adminOnly: true },
];

/** 'You do not have access to this page': a signed-in user who is not a moderator (or whom the server refused). */
export function NoAccess() {
  return (
    <section className="mx-auto flex max-w-md flex-col items-center px-4 py-24 text-center">
      <ShieldOff size={44} aria-hidden="true" className="text-gray-400" />
      <h1 className="mt-4 text-2xl font-bold text-gray-900 dark:text-gray-100">{MODERATION_TEXTS.noAccess}</h1>
      <p className="mt-2 text-gray-600 dark:text-gray-400">{MODERATION_TEXTS.noAccessHint}</p>
      <Link to="/" className={buttonClasses('secondary', 'md', 'mt-8')}>
        Go to the home page
      </Link>
    </section>
  );
}

const forbidden = (error: unknown) => error instanceof ApiError && error.status === 403;

function OpenReports({ reports }: { reports: ReturnType<typeof useReportGroups> }) {
  const groups = reports.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <ListState
      query={reports}
      count={groups.length}
      loadingLabel="Loading the open reports"
      failed={MODERATION_TEXTS.reportsFailed}
      empty={MODERATION_TEXTS.noReports}
      emptyIcon={<Inbox size={32} aria-hidden="true" className="text-gray-400" />}
    >
      <div className="space-y-4">
        {groups.map((group) => (
          <ReportGroupCard key={`${group.targetType}:${group.targetId}`} group={group} />
        ))}
      </div>
      <LoadMore query={reports} />
    </ListState>
  );
}

/**
 * /moderation (issue 15): the open reports grouped by item, newest first, with the moderator's
 * actions; the audit log; what is hidden or suspended, to restore or unsuspend; and for admins,
 * Roles. Tabs; `?tab=audit|hidden|roles` (and `&kind=comments|users`) keeps one across reloads.
 */
export function ModerationScreen({ role }: { role: UserRole | null }) {
  const [params, setParams] = useSearchParams();
  // Admins also get 'Roles' (the server refuses the call to anyone else anyway).
  const tabs = TABS.filter((t) => !t.adminOnly || role === 'admin');
  const tab: Tab = tabs.find((t) => t.value === params.get('tab'))?.value ?? 'reports';
  const ids = useId();
  const tabRefs = useRef<Record<Tab, HTMLButtonElement | null>>({ reports: null, audit: null, hidden: null, roles: null });
  const kind: HiddenListKind = HIDDEN_LIST_KINDS.find((k) => k === params.get('kind')) ?? 'posts';
  // A stored role of 'user' needs no call to know the answer; an unknown one asks the server (403 → the same state).
  const allowed = role === null || canModerate(role);
  const reports = useReportGroups(allowed);
  const audit = useAuditLog(allowed && tab === 'audit');
  const panelRef = useRef<HTMLDivElement>(null);
  // An action that closes a group's reports removes the group, and the button that had the focus
  // with it: the focus then goes to the list rather than falling back to the top of the page.
  // (Not on the first answer: opening the page leaves the focus where the browser puts it.)
  const firstAnswer = useRef(true);
  useEffect(() => {
    if (!reports.data) return;
    if (firstAnswer.current) firstAnswer.current = false;
    else if (!document.activeElement || document.activeElement === document.body) panelRef.current?.focus();
  }, [reports.data]);
  if (!allowed || forbidden(reports.error) || forbidden(audit.error)) return <NoAccess />;

  const select = (next: Tab) => setParams(next === 'reports' ? {} : { tab: next }, { replace: true });
  // Tabs pattern: arrows move between tabs (and select them), Home/End jump.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = tabs.findIndex((t) => t.value === tab);
    const to =
      event.key === 'ArrowRight'
        ? index + 1
        : event.key === 'ArrowLeft'
          ? index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? -1
              : null;
    if (to === null) return;
    event.preventDefault();
    const next = tabs[(to + tabs.length) % tabs.length]!.value;
    select(next);
    tabRefs.current[next]?.focus();
  };

  return (
    <section className="mx-auto max-w-3xl px-4 py-8 sm:py-10">
      <h1 className="text-2xl font-bold text-gray-900 sm:text-3xl dark:text-gray-100">{MODERATION_TEXTS.title}</h1>
      <div
        role="tablist"
        aria-label={MODERATION_TEXTS.title}
        onKeyDown={onKeyDown}
        className="mt-6 flex gap-1 overflow-x-auto border-b border-gray-200 dark:border-gray-800"
      >
        {tabs.map((t) => (
          <button
            key={t.value}
            ref={(el) => {
              tabRefs.current[t.value] = el;
            }}
            type="button"
            role="tab"
            id={`${ids}-${t.value}-tab`}
            aria-selected={t.value === tab}
            aria-controls={`${ids}-${t.value}-panel`}
            tabIndex={t.value === tab ? 0 : -1}
            onClick={() => select(t.value)}
            className={`-mb-px shrink-0 border-b-2 px-4 py-2.5 text-sm font-medium transition-colors ${
              t.value === tab
                ? 'border-indigo-600 text-indigo-600 dark:border-indigo-400 dark:text-indigo-400'
                : 'border-transparent text-gray-600 hover:border-gray-300 hover:text-gray-900 dark:text-gray-400 dark:hover:text-gray-100'
            }`}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div
        ref={panelRef}
        role="tabpanel"
        tabIndex={-1}
        id={`${ids}-${tab}-panel`}
        aria-labelledby={`${ids}-${tab}-tab`}
        className="mt-5 outline-none"
      >
        {tab === 'reports' ? (
          <OpenReports reports={reports} />
        ) : tab === 'audit' ? (
          <AuditLog log={audit} />
        ) : tab === 'hidden' ? (
          <HiddenList
            kind={kind}
            onKindChange={(next) => setParams(next === 'posts' ? { tab: 'hidden' } : { tab: 'hidden', kind: next }, { replace: true })}
          />
        ) : (
          <RolesForm />
        )}
      </div>
    </section>
  );
}
