import type { NotificationFilter } from '@inkwell/core';
import { NOTIFICATION_MESSAGES } from '@inkwell/core';
import { useMutation } from '@tanstack/react-query';
import { Bell, Check, CheckCheck, Trash2 } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/Button';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { Spinner } from '../../../components/ui/Spinner';
import { useFocusLater } from '../../../hooks/useFocusLater';
import { errorMessage, isRateLimited } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { type Notification, notificationHref } from '../api/notifications';
import { useUnreadCount } from '../hooks/notificationsCache';
import { notificationActions, useNotificationList, useUserId } from '../hooks/useNotifications';
import { NotificationContent } from './NotificationContent';

const FILTERS: { value: NotificationFilter; label: string; empty: string }[] = [
  { value: 'all', label: 'All', empty: 'No notifications found' },
  { value: 'unread', label: 'Unread', empty: "You don't have any unread notifications" },
  { value: 'like', label: 'Likes', empty: "You don't have any notifications in this category" },
  { value: 'comment', label: 'Comments', empty: "You don't have any notifications in this category" },
  { value: 'follow', label: 'Follows', empty: "You don't have any notifications in this category" },
];

export const PAGE_TEXTS = {
  fetchFailed: 'Failed to fetch notifications',
  markFailed: 'Failed to mark notifications as read',
  deleteFailed: 'Failed to delete notification',
  clearFailed: 'Failed to clear notifications',
  markedAll: NOTIFICATION_MESSAGES.allMarkedRead,
  deleted: NOTIFICATION_MESSAGES.deleted,
  cleared: NOTIFICATION_MESSAGES.cleared,
} as const;

/** Clear all deletes every notification, read or not, whatever the filter shows: it asks first. */
const CLEAR_ALL_TEXTS = {
  title: 'Clear all notifications?',
  message: 'Every notification will be deleted, read or unread, in every filter. This cannot be undone.',
  confirm: 'Clear all',
  busy: 'Clearing...',
};

function parseFilter(value: string | null): NotificationFilter {
  return FILTERS.some((f) => f.value === value) ? (value as NotificationFilter) : 'all';
}

const linkOf = (row: Element | null | undefined) => (row?.isConnected ? row.querySelector<HTMLElement>('a[href]') : null);

const MARK_READ_BUTTON = 'button[aria-label="Mark as read"]';

/** The line under the heading: 'All caught up' only once the count and the list are known (it showed over a spinner and a failure). */
function summary(unread: number | null | undefined, listUnknown: boolean): string {
  if (unread) return `${unread} unread`;
  return unread === 0 && !listUnknown ? 'You are all caught up' : '\u00a0';
}

/** /notifications (SPEC.md 2): filters, Mark all read, Clear all, per-item delete and mark-read, Load more. */
export function NotificationsScreen() {
  const userId = useUserId();
  const [params, setParams] = useSearchParams();
  const filter = parseFilter(params.get('filter'));
  const list = useNotificationList(userId, filter);
  const unreadCount = useUnreadCount(userId);
  const unread = unreadCount ?? 0;

  const toasted = useRef(0);
  useEffect(() => {
    if (!list.isError || list.isFetching || list.errorUpdatedAt === toasted.current) return;
    toasted.current = list.errorUpdatedAt;
    toast.error(PAGE_TEXTS.fetchFailed);
  }, [list.isError, list.isFetching, list.errorUpdatedAt]);

  const items = useMemo(() => {
    const seen = new Set<string>();
    const out: Notification[] = [];
    for (const page of list.data?.pages ?? []) {
      for (const n of page.notifications) {
        if (seen.has(n._id)) continue;
        seen.add(n._id);
        out.push(n);
      }
    }
    return out;
  }, [list.data]);

  const markAll = useMutation({
    mutationFn: notificationActions.markAllRead,
    onSuccess: () => toast.success(PAGE_TEXTS.markedAll),
    onError: (error) => toast.error(isRateLimited(error) ? error.message : PAGE_TEXTS.markFailed),
  });
  const [confirmClear, setConfirmClear] = useState(false);
  const clearAll = useMutation({
    mutationFn: notificationActions.clearAll,
    onSuccess: () => toast.success(PAGE_TEXTS.cleared),
    onError: (error) => toast.error(isRateLimited(error) ? error.message : PAGE_TEXTS.clearFailed),
  });
  const remove = useMutation({
    mutationFn: notificationActions.remove,
    onSuccess: () => toast.success(PAGE_TEXTS.deleted),
    onError: (error) => toast.error(isRateLimited(error) ? error.message : PAGE_TEXTS.deleteFailed),
  });
  // Marking one read from the page fails silently (SPEC.md 8).
  const markOne = useMutation({ mutationFn: notificationActions.markRead, onError: () => {} });

  const current = FILTERS.find((f) => f.value === filter) ?? FILTERS[0]!;

  // Every button here takes the focus away when it is done: disabled while it runs (Load more,
  // Delete, the two above the list) or for good (Mark all read with nothing unread), or gone (the
  // item's Mark as read, a deleted item). Without these the focus fell to <body> and the next Tab
  // started from the top of the page.
  const focusLater = useFocusLater();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const markAllRef = useRef<HTMLButtonElement>(null);
  const clearAllRef = useRef<HTMLButtonElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const loadMoreRef = useRef<HTMLButtonElement>(null);
  /**
   * Mark all read and Clear all keep the focus when they failed; done, they stay disabled and it goes
   * to the heading, not on to Clear all.
   */
  const selfOrHeading = (button: HTMLButtonElement | null) => (button && !button.disabled ? button : headingRef.current);
  /**
   * After an item's action: its Delete while the item stays, else the next item, else the one before,
   * else the heading. `shownWhenGone`: a control the item loses once the page shows the outcome (a
   * read item's Mark as read): until then the focus is still on it and nothing is handed on.
   */
  const focusAround = (row: HTMLElement | null, shownWhenGone?: string) => {
    const next = row?.nextElementSibling;
    const previous = row?.previousElementSibling;
    focusLater(() => {
      if (!row?.isConnected) return linkOf(next) ?? linkOf(previous) ?? headingRef.current;
      if (shownWhenGone && row.querySelector(shownWhenGone)) return null;
      const remove = row.querySelector<HTMLButtonElement>('button[aria-label="Delete notification"]');
      return remove?.disabled ? null : remove;
    });
  };
  const loadMore = () => {
    const from = items.length;
    void list.fetchNextPage().then(() =>
      // The first new item, once shown; the button again when nothing new came. A quick load may
      // leave the focus on the button (never disabled long enough to blur): it is handed on too.
      focusLater(() => {
        if (loadMoreRef.current?.disabled) return null;
        return linkOf(listRef.current?.children[from]) ?? loadMoreRef.current ?? linkOf(listRef.current?.lastElementChild);
      }, loadMoreRef.current),
    );
  };

  return (
    <section className="mx-auto max-w-3xl px-4 py-8 sm:py-10">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 ref={headingRef} tabIndex={-1} className="text-2xl font-bold text-gray-900 sm:text-3xl dark:text-gray-100">
            Notifications
          </h1>
          <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">{summary(unreadCount, list.isPending || list.isError)}</p>
        </div>
        <div className="flex gap-2">
          <Button
            ref={markAllRef}
            variant="secondary"
            size="sm"
            onClick={() => markAll.mutate(undefined, { onSettled: () => focusLater(() => selfOrHeading(markAllRef.current)) })}
            disabled={markAll.isPending || unread === 0}
          >
            <CheckCheck size={16} aria-hidden="true" />
            Mark all read
          </Button>
          <Button
            ref={clearAllRef}
            variant="secondary"
            size="sm"
            onClick={() => setConfirmClear(true)}
            disabled={clearAll.isPending || items.length === 0}
            className="text-red-600 dark:text-red-400"
          >
            <Trash2 size={16} aria-hidden="true" />
            Clear all
          </Button>
        </div>
      </div>

      <ConfirmDialog
        open={confirmClear}
        texts={CLEAR_ALL_TEXTS}
        busy={clearAll.isPending}
        onConfirm={() =>
          clearAll.mutate(undefined, {
            onSettled: () => {
              setConfirmClear(false);
              focusLater(() => selfOrHeading(clearAllRef.current));
            },
          })
        }
        onClose={() => setConfirmClear(false)}
      />

      <div role="toolbar" aria-label="Filter notifications" className="mt-6 flex flex-wrap gap-2">
        {FILTERS.map((f) => (
          <button
            key={f.value}
            type="button"
            aria-pressed={f.value === filter}
            onClick={() => setParams(f.value === 'all' ? {} : { filter: f.value }, { replace: true })}
            className={`shrink-0 rounded-full px-4 py-1.5 text-sm font-medium transition-colors ${
              f.value === filter
                ? 'bg-indigo-600 text-white dark:bg-indigo-500'
                : 'border border-gray-300 bg-white text-gray-700 hover:bg-gray-50 dark:border-gray-700 dark:bg-gray-900 dark:text-gray-300 dark:hover:bg-gray-800'
            }`}
          >
            {f.label}
          </button>
        ))}
      </div>

      <div className="mt-5">
        {list.isPending ? (
          <div className="flex justify-center py-16 text-indigo-600 dark:text-indigo-400">
            <Spinner size={32} label="Loading notifications" />
          </div>
        ) : items.length === 0 && list.isError ? (
          // Not the empty state: 'No notifications found' under 'n unread' said there were none.
          <div className="flex flex-col items-center rounded-xl border border-dashed border-gray-300 px-6 py-16 text-center dark:border-gray-700">
            <p role="alert" className="text-gray-700 dark:text-gray-300">
              {errorMessage(list.error, PAGE_TEXTS.fetchFailed)}
            </p>
            <Button variant="secondary" className="mt-4" disabled={list.isFetching} onClick={() => void list.refetch()}>
              {list.isFetching ? 'Loading...' : 'Try again'}
            </Button>
          </div>
        ) : items.length === 0 ? (
          <div className="flex flex-col items-center rounded-xl border border-dashed border-gray-300 px-6 py-16 text-center dark:border-gray-700">
            <Bell size={32} aria-hidden="true" className="text-gray-400" />
            <p className="mt-3 text-gray-600 dark:text-gray-400">{current.empty}</p>
          </div>
        ) : (
          <ul ref={listRef} className="overflow-hidden rounded-xl border border-gray-200 bg-white dark:border-gray-800 dark:bg-gray-900">
            {items.map((n) => (
              <li
                key={n._id}
                data-unread={!n.isRead || undefined}
                className={`flex items-start gap-2 border-b border-gray-100 px-2 py-2 last:border-b-0 sm:px-3 dark:border-gray-800 ${
                  n.isRead ? '' : 'bg-indigo-50/70 dark:bg-indigo-500/10'
                }`}
              >
                <Link
                  to={notificationHref(n)}
                  // Opened is read; a failure is silent, as marking one read from the page is (SPEC.md 8).
                  onClick={() => !n.isRead && markOne.mutate(n._id)}
                  className="min-w-0 flex-1 rounded-lg px-2 py-2 hover:bg-gray-100/70 dark:hover:bg-gray-800/60"
                >
                  <NotificationContent notification={n} />
                </Link>
                <div className="flex shrink-0 items-center gap-1 self-center">
                  {n.isRead ? (
                    <span className="flex h-9 w-9 items-center justify-center">
                      <Check size={16} aria-label="Read" className="text-green-600 dark:text-green-400" />
                    </span>
                  ) : (
                    <button
                      type="button"
                      onClick={(event) => {
                        const row = event.currentTarget.closest('li');
                        // Done, the item is read once it has no Mark as read; failed, the focus stays.
                        markOne.mutate(n._id, { onSettled: (_data, error) => focusAround(row, error ? undefined : MARK_READ_BUTTON) });
                      }}
                      aria-label="Mark as read"
                      title="Mark as read"
                      className="icon-button h-9 w-9"
                    >
                      <span aria-hidden="true" className="block h-2.5 w-2.5 rounded-full bg-indigo-600 dark:bg-indigo-400" />
                    </button>
                  )}
                  <button
                    type="button"
                    onClick={(event) => {
                      const row = event.currentTarget.closest('li');
                      remove.mutate(n._id, { onSettled: () => focusAround(row) });
                    }}
                    disabled={remove.isPending && remove.variables === n._id}
                    aria-label="Delete notification"
                    title="Delete notification"
                    className="icon-button h-9 w-9 hover:text-red-600 dark:hover:text-red-400"
                  >
                    <Trash2 size={18} aria-hidden="true" />
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}
        {list.hasNextPage && items.length > 0 && (
          <div className="mt-6 flex justify-center">
            <Button ref={loadMoreRef} variant="secondary" onClick={loadMore} disabled={list.isFetchingNextPage}>
              {list.isFetchingNextPage ? 'Loading...' : 'Load more'}
            </Button>
          </div>
        )}
      </div>
    </section>
  );
}
