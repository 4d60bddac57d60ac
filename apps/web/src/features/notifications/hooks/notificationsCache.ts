import type { NotificationFilter } from '@inkwell/core';
import type { InfiniteData } from '@tanstack/react-query';
import { create } from 'zustand';
import { queryClient } from '../../../lib/queryClient';
import { useSession } from '../../../lib/session';
import { matchesFilter, type Notification, type NotificationsResponse } from '../api/notifications';

/** Query keys, per signed-in user so one person's list never shows for another. */
export const notificationKeys = {
  all: (userId: string) => ['notifications', userId] as const,
  header: (userId: string) => ['notifications', userId, 'header'] as const,
  lists: (userId: string) => ['notifications', userId, 'list'] as const,
  list: (userId: string, filter: NotificationFilter) => ['notifications', userId, 'list', filter] as const,
};

export type ListData = InfiniteData<NotificationsResponse, number>;

export function currentUserId(): string | null {
  const { id, _id } = useSession.getState().user;
  return id ?? _id;
}

interface UnreadStore {
  userId: string | null;
  count: number | null;
  set: (userId: string, count: number) => void;
}

/**
 * The unread count of SPEC.md 4: set by every list response and every change (they all return it),
 * raised by one per realtime notification and replaced by the realtime authoritative count.
 */
export const useUnreadStore = create<UnreadStore>((set) => ({
  userId: null,
  count: null,
  set: (userId, count) => set({ userId, count: Math.max(0, count) }),
}));

export function setUnread(count: number, userId = currentUserId()): void {
  if (userId) useUnreadStore.getState().set(userId, count);
}

export function changeUnread(delta: number, userId = currentUserId()): void {
  if (!userId) return;
  const { userId: owner, count } = useUnreadStore.getState();
  useUnreadStore.getState().set(userId, (owner === userId && count !== null ? count : 0) + delta);
}

/** The unread count this tab holds for the user, or null if it has none for them. */
export function unreadKnown(userId: string): number | null {
  const { userId: owner, count } = useUnreadStore.getState();
  return owner === userId ? count : null;
}

/** The count of the signed-in user, or null before the first answer. */
export function useUnreadCount(userId: string | null): number | null {
  return useUnreadStore((s) => (userId && s.userId === userId ? s.count : null));
}

/**
 * Applies an edit to the header list and to every cached page list of the user. A list being
 * fetched meanwhile is fetched again: its answer may predate the change and would overwrite it
 * (the bell then said "1 unread" over an empty dropdown). The fetch in flight is cancelled first,
 * because a list's first load (no data yet) would otherwise be joined, not repeated.
 */
function editCaches(
  userId: string,
  edit: (items: Notification[], filter: NotificationFilter | 'header', firstPage: boolean) => Notification[],
) {
  const refetchIfFetching = (queryKey: readonly unknown[]) => {
    if (!queryClient.isFetching({ queryKey, exact: true })) return;
    void queryClient.cancelQueries({ queryKey, exact: true }).then(() => queryClient.invalidateQueries({ queryKey, exact: true }));
  };
  queryClient.setQueryData<NotificationsResponse>(notificationKeys.header(userId), (data) =>
    data ? { ...data, notifications: edit(data.notifications, 'header', true) } : data,
  );
  refetchIfFetching(notificationKeys.header(userId));
  for (const [key, data] of queryClient.getQueriesData<ListData>({ queryKey: notificationKeys.lists(userId) })) {
    refetchIfFetching(key);
    if (!data) continue;
    const filter = key[3] as NotificationFilter;
    queryClient.setQueryData<ListData>(key, {
      ...data,
      pages: data.pages.map((page, index) => ({ ...page, notifications: edit(page.notifications, filter, index === 0) })),
    });
  }
}

/** A realtime notification goes to the front of every list it belongs to. */
export function prependNotification(userId: string, notification: Notification): void {
  editCaches(userId, (items, filter, firstPage) => {
    const rest = items.filter((n) => n._id !== notification._id);
    if (!firstPage) return rest;
    if (filter !== 'header' && !matchesFilter(notification, filter)) return rest;
    return [notification, ...rest];
  });
}

export function markReadInCache(userId: string, id: string): void {
  editCaches(userId, (items) => items.map((n) => (n._id === id && !n.isRead ? { ...n, isRead: true } : n)));
}

export function markAllReadInCache(userId: string): void {
  editCaches(userId, (items) => items.map((n) => (n.isRead ? n : { ...n, isRead: true })));
}

export function removeFromCache(userId: string, id: string): void {
  editCaches(userId, (items) => items.filter((n) => n._id !== id));
}

export function clearCache(userId: string): void {
  editCaches(userId, () => []);
  for (const [key, data] of queryClient.getQueriesData<ListData>({ queryKey: notificationKeys.lists(userId) })) {
    if (data)
      queryClient.setQueryData<ListData>(key, {
        pages: data.pages.slice(0, 1).map((p) => ({ ...p, hasMore: false, nextCursor: null })),
        pageParams: data.pageParams.slice(0, 1),
      });
  }
}
