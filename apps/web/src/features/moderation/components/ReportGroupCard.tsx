import { type ReportGroup, relativeTime } from '@inkwell/core';
import { EyeOff, UserX } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/Button';
import { LocalTime } from '../../../components/ui/LocalTime';
import type { ModeratorCall } from '../api/moderation';
import { groupCalls, groupSubject, reasonLabel, targetHref, targetKind } from '../texts';
import { CallDialog } from './CallDialog';

const BADGE = 'inline-flex shrink-0 items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold';

/**
 * One reported item of the queue: what it is (link), who wrote it, whether it is hidden or its
 * author suspended, every open report on it (each with Dismiss), and the actions on the item and its author.
 */
export function ReportGroupCard({ group }: { group: ReportGroup }) {
  const [call, setCall] = useState<ModeratorCall | null>(null);
  const href = targetHref(group.target.url);
  const { author } = group.target;
  const count = group.reports.length;

  return (
    <article
      aria-label={`${targetKind(group.targetType)}: ${group.target.title}`}
      className="rounded-xl border border-gray-200 bg-white p-4 sm:p-5 dark:border-gray-800 dark:bg-gray-900"
    >
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <span className="rounded-full bg-gray-100 px-2 py-0.5 font-semibold text-gray-700 uppercase dark:bg-gray-800 dark:text-gray-300">
          {targetKind(group.targetType)}
        </span>
        {group.target.hidden && (
          <span className={`${BADGE} bg-red-100 text-red-800 dark:bg-red-500/15 dark:text-red-300`}>
            <EyeOff size={12} aria-hidden="true" />
            Hidden
          </span>
        )}
        {group.target.authorSuspended && (
          <span className={`${BADGE} bg-amber-100 text-amber-800 dark:bg-amber-500/15 dark:text-amber-300`}>
            <UserX size={12} aria-hidden="true" />
            Suspended
          </span>
        )}
        <span className="text-gray-500 dark:text-gray-400">
          {count} open {count === 1 ? 'report' : 'reports'}
        </span>
      </div>

      <h2 className="mt-2 text-base font-semibold wrap-anywhere text-gray-900 dark:text-gray-100">
        {href ? (
          <Link to={href} className="hover:text-indigo-600 hover:underline dark:hover:text-indigo-400">
            {group.target.title}
          </Link>
        ) : (
          group.target.title
        )}
      </h2>
      <p className="mt-0.5 text-sm wrap-anywhere text-gray-600 dark:text-gray-400">
        by{' '}
        <Link to={`/@${author.username}`} className="font-medium text-gray-800 hover:underline dark:text-gray-200">
          {author.name}
        </Link>{' '}
        @{author.username}
      </p>

      <ul aria-label="Reports" className="mt-3 divide-y divide-gray-100 rounded-lg bg-gray-50 dark:divide-gray-800 dark:bg-gray-950/40">
        {group.reports.map((report) => (
          <li key={report.id} className="flex flex-col gap-2 px-3 py-2.5 sm:flex-row sm:items-start sm:gap-3">
            <div className="min-w-0 flex-1 text-sm">
              <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
                <span className="rounded bg-indigo-50 px-1.5 py-0.5 text-xs font-semibold text-indigo-700 dark:bg-indigo-500/15 dark:text-indigo-300">
                  {reasonLabel(report.reason)}
                </span>
                <span className="wrap-anywhere text-gray-600 dark:text-gray-400">
                  by{' '}
                  <Link to={`/@${report.reporter.username}`} className="font-medium text-gray-800 hover:underline dark:text-gray-200">
                    {report.reporter.name}
                  </Link>
                  {' · '}
                  <LocalTime date={report.createdAt}>{relativeTime(report.createdAt)}</LocalTime>
                </span>
              </p>
              {report.text && <p className="mt-1 whitespace-pre-wrap wrap-anywhere text-gray-800 dark:text-gray-200">{report.text}</p>}
            </div>
            <Button
              size="sm"
              variant="secondary"
              className="self-start"
              aria-label={`Dismiss report by ${report.reporter.name}`}
              onClick={() => setCall({ kind: 'dismiss', reportId: report.id })}
            >
              Dismiss
            </Button>
          </li>
        ))}
      </ul>

      <div className="mt-3 flex flex-wrap gap-2">
        {groupCalls(group).map(({ label, call: next }) => (
          <Button
            key={label}
            size="sm"
            variant={next.kind === 'hide' || next.kind === 'suspend' ? 'danger' : 'secondary'}
            aria-haspopup="dialog"
            onClick={() => setCall(next)}
          >
            {label}
          </Button>
        ))}
      </div>

      <CallDialog call={call} subject={groupSubject(group)} onClose={() => setCall(null)} />
    </article>
  );
}
