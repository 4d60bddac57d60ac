import type { NotificationFilter } from '@inkwell/core';
import { QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queryClient } from '../../../lib/queryClient';
import { useSession } from '../../../lib/session';
import type { Notification, NotificationsResponse } from '../api/notifications';
import * as cache from './notificationsCache';

const ME = 'user-me';
const n = (id: string, type: string, isRead = false): Notification => ({
  _id: id,
  type,
  isRead,
  createdAt: '2026-01-01T00:00:00.000Z',
  message: 'liked your blog',
  sender: null,
  blog: null,
  comment: null,
});
const response = (notifications: Notification[], hasMore = false): NotificationsResponse => ({
  success: true,
  notifications,
  unreadCount: 0,
  hasMore,
  nextCursor: hasMore ? 'next' : null,
});

const header = () => queryClient.getQueryData<NotificationsResponse>(cache.notificationKeys.header(ME))!.notifications.map((x) => x._id);
const list = (filter: NotificationFilter) =>
  queryClient.getQueryData<cache.ListData>(cache.notificationKeys.list(ME, filter))!.pages.map((p) => p.notifications.map((x) => x._id));

/** The bell's and the notifications screen's shared cache (what realtime events and the actions write). */
describe('notification cache', () => {
  beforeEach(() => {
    queryClient.clear();
    queryClient.setQueryData(cache.notificationKeys.header(ME), response([n('h1', 'like'), n('h2', 'follow', true)]));
    queryClient.setQueryData<cache.ListData>(cache.notificationKeys.list(ME, 'all'), {
      pages: [response([n('h1', 'like'), n('h2', 'follow', true)], true), response([n('old', 'comment')])],
      pageParams: [1, 2],
    });
    queryClient.setQueryData<cache.ListData>(cache.notificationKeys.list(ME, 'follow'), {
      pages: [response([n('h2', 'follow', true)])],
      pageParams: [1],
    });
    queryClient.setQueryData<cache.ListData>(cache.notificationKeys.list('someone-else', 'all'), {
      pages: [response([n('x', 'like')])],
      pageParams: [1],
    });
  });
  afterEach(() => queryClient.clear());

  it('a realtime notification goes first in the header and the first page of each list it matches, once', () => {
    cache.prependNotification(ME, n('new', 'like'));
    cache.prependNotification(ME, n('new', 'like'));
    expect(header()).toEqual(['new', 'h1', 'h2']);
    expect(list('all')).toEqual([['new', 'h1', 'h2'], ['old']]);
    expect(list('follow')).toEqual([['h2']]);
    // Another person's cached list is never touched.
    expect(
      queryClient.getQueryData<cache.ListData>(cache.notificationKeys.list('someone-else', 'all'))!.pages[0]!.notifications,
    ).toHaveLength(1);
  });

  it('marks one or all as read everywhere', () => {
    cache.markReadInCache(ME, 'h1');
    const all = () =>
      queryClient.getQueryData<cache.ListData>(cache.notificationKeys.list(ME, 'all'))!.pages.flatMap((p) => p.notifications);
    expect(all().find((x) => x._id === 'h1')!.isRead).toBe(true);
    expect(all().find((x) => x._id === 'old')!.isRead).toBe(false);
    cache.markAllReadInCache(ME);
    expect(all().every((x) => x.isRead)).toBe(true);
    expect(queryClient.getQueryData<NotificationsResponse>(cache.notificationKeys.header(ME))!.notifications.every((x) => x.isRead)).toBe(
      true,
    );
  });

  it('removes one everywhere, and clearing leaves one empty page with nothing more to load', () => {
    cache.removeFromCache(ME, 'h2');
    expect(header()).toEqual(['h1']);
    expect(list('follow')).toEqual([[]]);
    cache.clearCache(ME);
    expect(header()).toEqual([]);
    const data = queryClient.getQueryData<cache.ListData>(cache.notificationKeys.list(ME, 'all'))!;
    expect(data.pages).toEqual([response([], false)]);
    expect(data.pageParams).toEqual([1]);
  });
});

/**
 * The bell's list loading while a notification arrives: the answer in flight was read before the
 * notification existed, so it must not be the last word (CI once saw "1 unread" over an empty list).
 */
describe('a list being fetched when a realtime change arrives', () => {
  afterEach(() => queryClient.clear());

  /** Watches the header list with a server whose answers the test releases one by one. */
  function watchHeader() {
    const answers: Array<(r: NotificationsResponse) => void> = [];
    const observer = new QueryObserver<NotificationsResponse>(queryClient, {
      queryKey: cache.notificationKeys.header(ME),
      queryFn: () => new Promise<NotificationsResponse>((resolve) => answers.push(resolve)),
    });
    const unsubscribe = observer.subscribe(() => {});
    return { answers, unsubscribe, ids: () => (observer.getCurrentResult().data?.notifications ?? []).map((x) => x._id) };
  }
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

  it.each([
    ['its first load', undefined],
    ['a refetch of a list already shown', response([n('h1', 'like')])],
  ])('%s is fetched again, and the newer answer is what shows', async (_, shown) => {
    if (shown) queryClient.setQueryData(cache.notificationKeys.header(ME), shown, { updatedAt: 0 });
    const bell = watchHeader();
    await settle();
    expect(bell.answers).toHaveLength(1);
    cache.prependNotification(ME, n('new', 'like'));
    await settle();
    // The answer read before the notification arrives late: it must not stay.
    bell.answers[0]!(response(shown ? [n('h1', 'like')] : []));
    await settle();
    expect(bell.answers).toHaveLength(2);
    bell.answers[1]!(response([n('new', 'like'), n('h1', 'like')]));
    await settle();
    expect(bell.ids()).toEqual(['new', 'h1']);
    bell.unsubscribe();
  });

  it('a list that is not being fetched is edited in place, not fetched again', async () => {
    queryClient.setQueryData(cache.notificationKeys.header(ME), response([n('h1', 'like')]));
    const bell = watchHeader();
    await settle();
    expect(bell.answers).toHaveLength(0);
    cache.prependNotification(ME, n('new', 'like'));
    await settle();
    expect(bell.answers).toHaveLength(0);
    expect(bell.ids()).toEqual(['new', 'h1']);
    bell.unsubscribe();
  });
});

describe('unread count', () => {
  beforeEach(() => {
    cache.useUnreadStore.setState({ userId: null, count: null });
    useSession.setState({ user: { ...useSession.getState().user, id: ME, _id: ME, token: 't' } });
  });

  it('is set by answers, moved by events, never negative, and belongs to one person', () => {
    cache.setUnread(3);
    expect(cache.useUnreadStore.getState()).toMatchObject({ userId: ME, count: 3 });
    cache.changeUnread(1);
    expect(cache.useUnreadStore.getState().count).toBe(4);
    cache.setUnread(-2);
    expect(cache.useUnreadStore.getState().count).toBe(0);
    // A count of someone else does not carry over to the next person signed in.
    cache.changeUnread(1, 'next-person');
    expect(cache.useUnreadStore.getState()).toMatchObject({ userId: 'next-person', count: 1 });
  });

  it('does nothing when nobody is signed in', () => {
    useSession.setState({ user: { ...useSession.getState().user, id: null, _id: null, token: null } });
    cache.setUnread(5);
    cache.changeUnread(1);
    expect(cache.useUnreadStore.getState()).toMatchObject({ userId: null, count: null });
  });
});
