import { NOTIFICATION_DROPDOWN_SHOWN, NOTIFICATION_MESSAGES, UNREAD_BADGE_CAP } from '@inkwell/core';
import { useMutation } from '@tanstack/react-query';
import { Bell, Check } from 'lucide-react';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { Spinner } from '../../../components/ui/Spinner';
import { useDismiss } from '../../../hooks/useDismiss';
import { useFocusLater } from '../../../hooks/useFocusLater';
import { errorMessage } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { type Notification, notificationHref } from '../api/notifications';
import { useUnreadCount } from '../hooks/notificationsCache';
import { notificationActions, useHeaderNotifications, useRealtimeNotifications, useUserId } from '../hooks/useNotifications';
import { badgeText, NotificationContent } from './NotificationContent';

export const HEADER_TEXTS = {
  empty: 'No notifications yet',
  markedOne: NOTIFICATION_MESSAGES.markedRead,
  markedAll: 'All are Marked Read Successfully',
  markFailed: 'Failed to mark notifications as read',
  fetchFailed: 'Failed to fetch notifications',
} as const;

/**
 * The bell of the top bar (SPEC.md 2): red unread badge capped '9+', and a dropdown with the
 * newest notifications, 'Mark as read', 'Mark all read' and 'View all'. Loaded only for signed-in
 * people; it keeps the realtime connection open while mounted.
 */
export default function BellMenu() {
  const userId = useUserId();
  useRealtimeNotifications(userId);
  const header = useHeaderNotifications(userId);
  const unread = useUnreadCount(userId) ?? 0;
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const panelId = useId();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const close = useCallback(() => setOpen(false), []);
  useDismiss(open, close, [buttonRef, panelRef], buttonRef, { closeOnFocusOut: true });

  // The dropdown closes when the page changes.
  const [shownPath, setShownPath] = useState(pathname);
  if (shownPath !== pathname) {
    setShownPath(pathname);
    setOpen(false);
  }

  const { refetch, isStale } = header;
  useEffect(() => {
    if (open && isStale) void refetch();
  }, [open, isStale, refetch]);

  const markOne = useMutation({
    mutationFn: notificationActions.markRead,
    onSuccess: () => toast.success(HEADER_TEXTS.markedOne),
    onError: (error) => toast.error(errorMessage(error, HEADER_TEXTS.markFailed)),
  });
  const markAll = useMutation({
    mutationFn: notificationActions.markAllRead,
    onSuccess: () => toast.success(HEADER_TEXTS.markedAll),
    onError: (error) => toast.error(errorMessage(error, HEADER_TEXTS.markFailed)),
  });

  const items = (header.data?.notifications ?? []).slice(0, NOTIFICATION_DROPDOWN_SHOWN);
  // The name holds the badge's own text ('9+' above 9), so what is seen is what is said (WCAG 2.5.3).
  const label = unread > 0 ? `Notifications, ${badgeText(unread, UNREAD_BADGE_CAP)} unread` : 'Notifications';

  // 'Mark as read' and 'Mark all read' take the focus with them: disabled while they run, then gone
  // (the item reads as read; nothing is left unread). It fell to <body> and the next Tab started
  // again from the top of the page, away from the dropdown, which stays open. Each now hands it on
  // inside the dropdown: Mark as read to its item (Tab goes on to the next one), Mark all read to
  // the dropdown's heading (Tab goes on to the first item); each keeps it when it failed.
  const focusLater = useFocusLater();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const markAllRef = useRef<HTMLButtonElement>(null);
  const enabled = (button: HTMLButtonElement | null | undefined) => (button && !button.disabled ? button : null);
  const markOneRead = (id: string, row: HTMLElement | null) =>
    markOne.mutate(id, {
      onSettled: () =>
        focusLater(() => {
          // The item gone meanwhile (a newer one pushed it out of the three shown): the heading.
          if (!row?.isConnected) return headingRef.current;
          const again = row.querySelector<HTMLButtonElement>('button[aria-label="Mark as read"]');
          if (again) return enabled(again);
          return row.querySelector<HTMLElement>('button');
        }),
    });
  const markAllRead = () =>
    markAll.mutate(undefined, {
      onSettled: () => focusLater(() => (markAllRef.current ? enabled(markAllRef.current) : headingRef.current)),
    });

  const go = (n: Notification) => {
    setOpen(false);
    // Opened is read (the count stayed as it was after reading the post); quietly, like the page's own.
    if (!n.isRead) void notificationActions.markRead(n._id).catch(() => undefined);
    navigate(notificationHref(n));
  };

  return (
    <div className="relative">
      <button
        ref={buttonRef}
        type="button"
        aria-label={label}
        title="Notifications"
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((o) => !o)}
        className="icon-button relative"
      >
        <Bell size={20} aria-hidden="true" />
        {unread > 0 && (
          <span
            data-testid="unread-badge"
            aria-hidden="true"
            className="absolute top-1 right-1 flex h-[18px] min-w-[18px] items-center justify-center rounded-full bg-red-600 px-1 text-[10px] leading-none font-bold text-white ring-2 ring-white dark:ring-gray-950"
          >
            {badgeText(unread, UNREAD_BADGE_CAP)}
          </span>
        )}
      </button>
      {open && (
        <div
          ref={panelRef}
          id={panelId}
          role="dialog"
          aria-label="Notifications"
          className="fixed inset-x-2 top-[4.25rem] z-50 overflow-hidden rounded-xl border border-gray-200 bg-white shadow-xl sm:absolute sm:inset-x-auto sm:top-auto sm:right-0 sm:mt-2 sm:w-96 dark:border-gray-800 dark:bg-gray-900"
        >
          <div className="flex items-center justify-between gap-3 border-b border-gray-100 px-4 py-3 dark:border-gray-800">
            <h2 ref={headingRef} tabIndex={-1} className="font-semibold text-gray-900 dark:text-gray-100">
              Notifications
            </h2>
            {unread > 0 && (
              <button
                ref={markAllRef}
                type="button"
                onClick={markAllRead}
                disabled={markAll.isPending}
                className="rounded-md px-2 py-1 text-sm font-medium text-indigo-600 hover:bg-indigo-50 disabled:opacity-60 dark:text-indigo-400 dark:hover:bg-indigo-500/10"
              >
                Mark all read
              </button>
            )}
          </div>
          {header.isPending ? (
            <div className="flex justify-center py-10 text-indigo-600 dark:text-indigo-400">
              <Spinner size={24} label="Loading notifications" />
            </div>
          ) : header.isError && items.length === 0 ? (
            <p role="alert" className="px-4 py-10 text-center text-sm text-red-600 dark:text-red-400">
              {errorMessage(header.error, HEADER_TEXTS.fetchFailed)}
            </p>
          ) : items.length === 0 ? (
            <p className="px-4 py-10 text-center text-sm text-gray-500 dark:text-gray-400">{HEADER_TEXTS.empty}</p>
          ) : (
            <ul className="divide-y divide-gray-100 dark:divide-gray-800">
              {items.map((n) => (
                <li
                  key={n._id}
                  data-unread={!n.isRead || undefined}
                  className={`flex items-start gap-2 px-2 py-1 ${n.isRead ? '' : 'bg-indigo-50/70 dark:bg-indigo-500/10'}`}
                >
                  <button
                    type="button"
                    onClick={() => go(n)}
                    className="min-w-0 flex-1 rounded-lg px-2 py-2 text-left hover:bg-gray-100/70 dark:hover:bg-gray-800/60"
                  >
                    <NotificationContent notification={n} compact />
                  </button>
                  <span className="flex shrink-0 items-center self-center pr-1">
                    {n.isRead ? (
                      <Check size={16} aria-label="Read" className="text-green-600 dark:text-green-400" />
                    ) : (
                      <button
                        type="button"
                        onClick={(event) => markOneRead(n._id, event.currentTarget.closest('li'))}
                        disabled={markOne.isPending && markOne.variables === n._id}
                        aria-label="Mark as read"
                        title="Mark as read"
                        className="rounded-full p-1.5 text-indigo-600 hover:bg-indigo-100 disabled:opacity-60 dark:text-indigo-400 dark:hover:bg-indigo-500/20"
                      >
                        <span aria-hidden="true" className="block h-2.5 w-2.5 rounded-full bg-indigo-600 dark:bg-indigo-400" />
                      </button>
                    )}
                  </span>
                </li>
              ))}
            </ul>
          )}
          <div className="border-t border-gray-100 p-2 dark:border-gray-800">
            <Link
              to="/notifications"
              onClick={close}
              className="block rounded-lg px-3 py-2 text-center text-sm font-medium text-indigo-600 hover:bg-indigo-50 dark:text-indigo-400 dark:hover:bg-indigo-500/10"
            >
              View all
            </Link>
          </div>
        </div>
      )}
    </div>
  );
}
