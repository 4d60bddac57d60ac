import { relativeTime } from '@inkwell/core';
import { ScrollText } from 'lucide-react';
import { LocalTime } from '../../../components/ui/LocalTime';
import type { useAuditLog } from '../api/moderation';
import { describeAudit, MODERATION_TEXTS } from '../texts';
import { ListState, LoadMore } from './ListState';

/** The 'Audit log' tab: who did what to which item, when and why, newest first. */
export function AuditLog({ log }: { log: ReturnType<typeof useAuditLog> }) {
  const entries = log.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <ListState
      query={log}
      count={entries.length}
      loadingLabel="Loading the audit log"
      failed={MODERATION_TEXTS.auditFailed}
      empty={MODERATION_TEXTS.noAudit}
      emptyIcon={<ScrollText size={32} aria-hidden="true" className="text-gray-400" />}
    >
      <ol
        aria-label={MODERATION_TEXTS.auditTab}
        className="divide-y divide-gray-100 overflow-hidden rounded-xl border border-gray-200 bg-white dark:divide-gray-800 dark:border-gray-800 dark:bg-gray-900"
      >
        {entries.map((entry) => {
          const { who, what } = describeAudit(entry);
          return (
            <li key={entry.id} className="px-4 py-3 text-sm">
              <p className="wrap-anywhere text-gray-800 dark:text-gray-200">
                <span className={`font-semibold ${entry.moderator ? '' : 'text-gray-600 italic dark:text-gray-400'}`}>{who}</span> {what}
              </p>
              {entry.reason && <p className="mt-1 whitespace-pre-wrap wrap-anywhere text-gray-600 dark:text-gray-400">“{entry.reason}”</p>}
              <LocalTime date={entry.createdAt} className="mt-1 block text-xs text-gray-500 dark:text-gray-400">
                {relativeTime(entry.createdAt)}
              </LocalTime>
            </li>
          );
        })}
      </ol>
      <LoadMore query={log} />
    </ListState>
  );
}
