import { NOTIFICATION_HEADER_FETCH, type NotificationFilter } from '@inkwell/core';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ApiError } from '../../../lib/api';
import { queryClient } from '../../../lib/queryClient';
import { useSession } from '../../../lib/session';
import { onRealtime, retainRealtime } from '../../../lib/socket';
import {
  clearNotifications,
  deleteNotification,
  fetchNotifications,
  isNotification,
  markAllNotificationsRead,
  markNotificationRead,
} from '../api/notifications';
import {
  changeUnread,
  clearCache,
  currentUserId,
  markAllReadInCache,
  markReadInCache,
  notificationKeys,
  prependNotification,
  removeFromCache,
  setUnread,
  unreadKnown,
} from './notificationsCache';

export const PAGE_SIZE = 10;

/** The signed-in user's id (null when signed out). */
export function useUserId(): string | null {
  return useSession((s) => (s.user.token ? (s.user.id ?? s.user._id) : null));
}

/** Newest notifications for the top bar (the fetch asks for 4; the dropdown shows 3). */
export function useHeaderNotifications(userId: string | null) {
  return useQuery({
    queryKey: notificationKeys.header(userId ?? ''),
    queryFn: async ({ signal }) => {
      const data = await fetchNotifications({ limit: NOTIFICATION_HEADER_FETCH }, signal);
      setUnread(data.unreadCount, userId ?? undefined);
      return data;
    },
    enabled: userId !== null,
    retry: false,
  });
}

/**
 * A filter's pages for /notifications; 'Load more' asks for the items after the last one loaded
 * (its cursor), so items read or deleted meanwhile do not make the next page skip as many.
 */
export function useNotificationList(userId: string | null, filter: NotificationFilter) {
  return useInfiniteQuery({
    queryKey: notificationKeys.list(userId ?? '', filter),
    queryFn: async ({ pageParam, signal }) => {
      const data = await fetchNotifications({ limit: PAGE_SIZE, filter, ...(pageParam ? { cursor: pageParam } : {}) }, signal);
      setUnread(data.unreadCount, userId ?? undefined);
      return data;
    },
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled: userId !== null,
    retry: false,
    staleTime: 0,
  });
}

/** The changes; each keeps the cached lists and the unread count in step with the answer. */
export const notificationActions = {
  async markRead(id: string) {
    const userId = currentUserId();
    const data = await markNotificationRead(id);
    if (userId) {
      markReadInCache(userId, id);
      setUnread(data.unreadCount, userId);
    }
    return data;
  },
  async markAllRead() {
    const userId = currentUserId();
    const data = await markAllNotificationsRead();
    if (userId) {
      markAllReadInCache(userId);
      setUnread(data.unreadCount, userId);
    }
    return data;
  },
  async remove(id: string) {
    const userId = currentUserId();
    try {
      const data = await deleteNotification(id);
      if (userId) {
        removeFromCache(userId, id);
        setUnread(data.unreadCount, userId);
      }
      return data;
    } catch (error) {
      // Already gone (taken back by an unlike or unfollow, deleted in another tab): what was asked
      // for is done, so it leaves the list instead of staying with 'Failed to delete notification'.
      if (!(error instanceof ApiError && error.status === 404) || !userId) throw error;
      removeFromCache(userId, id);
      rereadLists(userId);
      return undefined;
    }
  },
  async clearAll() {
    const userId = currentUserId();
    const data = await clearNotifications();
    if (userId) {
      clearCache(userId);
      setUnread(data.unreadCount, userId);
    }
    return data;
  },
};

/** This user's notification lists are stale (changed elsewhere): read them again. */
function rereadLists(userId: string): void {
  void queryClient.invalidateQueries({ queryKey: notificationKeys.all(userId) });
}

let listening = false;

/** Realtime → cache, installed once for the app (the bell is mounted twice: desktop and mobile bars). */
function listenOnce(): void {
  if (listening) return;
  listening = true;
  onRealtime('newNotification', (payload) => {
    const userId = currentUserId();
    if (!userId || !isNotification(payload)) return;
    prependNotification(userId, payload);
    if (!payload.isRead) changeUnread(1, userId);
  });
  onRealtime('unreadCountUpdate', (count) => {
    const userId = currentUserId();
    const known = userId ? unreadKnown(userId) : null;
    setUnread(count);
    // Fewer unread than this tab knew, and not by its own doing (that set the count already):
    // notices were read or deleted in another tab, or taken back (an unlike, an unfollow). The
    // lists are read again, so they neither show those as unread nor keep a taken-back one
    // beside its redo.
    if (userId && known !== null && typeof count === 'number' && count < known) rereadLists(userId);
  });
  // A notice taken back may have been read already (the count does not move): read the lists again.
  onRealtime('notificationRemoved', () => {
    const userId = currentUserId();
    if (userId) rereadLists(userId);
  });
  // Notifications made before the socket was registered were never pushed: re-read once connected.
  onRealtime('connected', () => {
    const userId = currentUserId();
    if (userId) rereadLists(userId);
  });
  // A refused token: re-checking the session answers 401 and the api client signs out.
  onRealtime('unauthorized', () => void queryClient.invalidateQueries({ queryKey: ['me'] }));
}

/** Keeps the realtime connection open while a signed-in screen shows notifications. */
export function useRealtimeNotifications(userId: string | null): void {
  useEffect(() => {
    if (!userId) return;
    listenOnce();
    return retainRealtime();
  }, [userId]);
}
