import { MAX_SCHEDULE_AHEAD_MS, SCHEDULE_MESSAGES, scheduledFor } from '@inkwell/core';
import { CalendarClock } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Modal } from '../../../components/ui/Modal';

/** An instant as a datetime-local value ("2026-11-25T10:30") in the writer's own time zone. */
export function toLocalInput(date: Date): string {
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

interface ScheduleDialogProps {
  open: boolean;
  /** The current schedule (UTC ISO), if any. */
  scheduledAt: string | null;
  onClose: () => void;
  /** A new time (UTC ISO), or null to cancel the schedule. */
  onChange: (scheduledAt: string | null) => void;
  /** The post is public now: a schedule makes it a draft until then (said before it is set). */
  live?: boolean;
}

const SCHEDULE_TAKES_OFFLINE = 'This post is public now: scheduling it takes it off the site until the time you pick.';

/** Picks when a draft publishes itself: local date and time in, UTC out (the server's job publishes it). */
export function ScheduleDialog({ open, scheduledAt, onClose, onChange, live = false }: ScheduleDialogProps) {
  const id = useId();
  const [value, setValue] = useState(() => toLocalInput(scheduledAt ? new Date(scheduledAt) : new Date(Date.now() + 3600_000)));
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // A datetime-local value without an offset is read in the browser's time zone.
    const at = new Date(value);
    if (Number.isNaN(at.getTime())) return setError(SCHEDULE_MESSAGES.invalid.replace('scheduledAt: ', ''));
    if (at.getTime() <= Date.now()) return setError('Pick a time in the future');
    if (at.getTime() > Date.now() + MAX_SCHEDULE_AHEAD_MS) return setError('Pick a time at most one year ahead');
    onChange(at.toISOString());
    onClose();
  };

  return (
    <Modal open={open} title="Schedule" onClose={onClose}>
      <form onSubmit={submit} noValidate className="space-y-4">
        {live && (
          <p role="note" className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-500/10 dark:text-amber-200">
            {SCHEDULE_TAKES_OFFLINE}
          </p>
        )}
        <div>
          <label htmlFor={`${id}-at`} className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-300">
            Publish on
          </label>
          <input
            id={`${id}-at`}
            type="datetime-local"
            value={value}
            min={toLocalInput(new Date())}
            // Seconds allowed: a post may go out at 10:30:15 (and tests need not wait a minute).
            step={1}
            onChange={(e) => {
              setValue(e.target.value);
              setError(null);
            }}
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-hint`}
            className="w-full min-w-0 rounded-lg border border-gray-300 bg-white px-2 py-2 text-sm text-gray-900 sm:px-3 sm:text-base dark:border-gray-700 dark:bg-gray-950 dark:text-gray-100"
          />
          <p id={`${id}-hint`} className={`mt-1 text-xs ${error ? 'text-red-700 dark:text-red-400' : 'text-gray-500 dark:text-gray-400'}`}>
            {error ?? `Your time zone: ${Intl.DateTimeFormat().resolvedOptions().timeZone}. It stays a draft until then.`}
          </p>
        </div>
        <div className="flex flex-wrap justify-end gap-2">
          {scheduledAt && (
            <button
              type="button"
              onClick={() => {
                onChange(null);
                onClose();
              }}
              className="rounded-lg border border-gray-300 px-4 py-2 text-sm font-medium text-gray-700 hover:bg-gray-50 dark:border-gray-700 dark:text-gray-200 dark:hover:bg-gray-800"
            >
              Cancel schedule
            </button>
          )}
          <button
            type="submit"
            className="rounded-lg bg-indigo-600 px-4 py-2 text-sm font-semibold text-white hover:bg-indigo-700 dark:bg-indigo-500 dark:hover:bg-indigo-600"
          >
            Set schedule
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** The Schedule button beside Publish/Draft, with the current schedule (if any) in local time. */
export function ScheduleControl({
  scheduledAt,
  onChange,
  disabled = false,
  live = false,
}: {
  scheduledAt: string | null;
  onChange: (scheduledAt: string | null) => void;
  disabled?: boolean;
  live?: boolean;
}) {
  const [open, setOpen] = useState(false);
  return (
    <div className="flex flex-col gap-1">
      <button
        type="button"
        disabled={disabled}
        onClick={() => setOpen(true)}
        className="inline-flex items-center justify-center gap-2 rounded-lg border border-gray-300 px-4 py-2 text-sm font-medium text-gray-700 transition hover:bg-gray-50 disabled:cursor-not-allowed disabled:opacity-60 dark:border-gray-700 dark:text-gray-200 dark:hover:bg-gray-800"
      >
        <CalendarClock size={16} aria-hidden="true" />
        {scheduledAt ? 'Change schedule' : 'Schedule'}
      </button>
      {scheduledAt && (
        <p className="text-xs text-indigo-700 dark:text-indigo-300" role="status">
          {scheduledFor(scheduledAt)}
        </p>
      )}
      {open && <ScheduleDialog open scheduledAt={scheduledAt} onClose={() => setOpen(false)} onChange={onChange} live={live} />}
    </div>
  );
}
