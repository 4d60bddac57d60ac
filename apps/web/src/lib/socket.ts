import type { Socket } from 'socket.io-client';
import { useSession } from './session';

/**
 * The realtime connection of SPEC.md 7: one socket.io socket per signed-in session, websocket
 * transport only, authenticated with the session token; after each connect it sends `register`
 * with the user id. socket.io-client is loaded on demand, so visitors without a session never
 * download it.
 *
 * Screens `retainRealtime()` while they need live events (the navbar bell does) and subscribe with
 * `onRealtime()`; listeners survive reconnects. The socket follows the session: logout (or another
 * user signing in) disconnects it; a refreshed token of the same user is used from the next
 * handshake on (the server drops sockets itself when it revokes tokens).
 */
export interface RealtimeEvents {
  /** One notification, as GET /notifications lists them. */
  newNotification: (notification: unknown) => void;
  /** The authoritative unread count. */
  unreadCountUpdate: (count: number) => void;
  /** A notification was taken back (an unlike, an unfollow), read or not: lists are stale. */
  notificationRemoved: () => void;
  /** The server refused the token ('unauthorized'): it was revoked or has expired. */
  unauthorized: () => void;
  /**
   * Connected and registered (first time or again after a drop). Anything created before the
   * server joined this socket to the user's room was not pushed, so lists should be re-read now.
   */
  connected: () => void;
}

type EventName = keyof RealtimeEvents;

const listeners: { [E in EventName]: Set<RealtimeEvents[E]> } = {
  newNotification: new Set(),
  unreadCountUpdate: new Set(),
  notificationRemoved: new Set(),
  unauthorized: new Set(),
  connected: new Set(),
};

function emit<E extends EventName>(event: E, ...args: Parameters<RealtimeEvents[E]>): void {
  for (const listener of listeners[event]) (listener as (...a: Parameters<RealtimeEvents[E]>) => void)(...args);
}

/** Adds a listener; returns its removal. */
export function onRealtime<E extends EventName>(event: E, listener: RealtimeEvents[E]): () => void {
  listeners[event].add(listener);
  return () => {
    listeners[event].delete(listener);
  };
}

let refs = 0;
let socket: Socket | null = null;
/** The user the current (or loading) socket belongs to. */
let openedFor: string | null = null;
/** Bumped on every connect and disconnect, so a socket whose import resolves late is dropped. */
let generation = 0;
let stopFollowingSession: (() => void) | null = null;

function open(userId: string): void {
  const mine = ++generation;
  openedFor = userId;
  import('socket.io-client')
    .then(({ io }) => {
      if (mine !== generation) return;
      // Read at every handshake, so reconnects present the session's current token.
      const auth = (send: (data: object) => void) => send({ token: useSession.getState().user.token });
      const s = io({ path: '/socket.io', transports: ['websocket'], auth });
      socket = s;
      s.on('connect', () => {
        s.emit('register', userId);
        emit('connected');
      });
      s.on('connect_error', (error: Error) => {
        if (error.message !== 'unauthorized') return; // network trouble: socket.io retries by itself
        // Refused by the server, which socket.io does not retry: drop this socket; the next session
        // change (a refreshed token, or sign-out) decides whether to open another.
        if (mine === generation) close();
        emit('unauthorized');
      });
      // The server drops a socket whose token was revoked or expired; socket.io does not retry that by
      // itself. Connecting again presents the session's current token: a refreshed one goes on, a dead
      // one is refused ('unauthorized' above), which re-reads the session and so signs this tab out.
      s.on('disconnect', (reason: string) => {
        if (reason === 'io server disconnect' && mine === generation) s.connect();
      });
      s.on('newNotification', (notification: unknown) => emit('newNotification', notification));
      s.on('unreadCountUpdate', (count: unknown) => {
        if (typeof count === 'number' && Number.isFinite(count)) emit('unreadCountUpdate', Math.max(0, count));
      });
      s.on('notificationRemoved', () => emit('notificationRemoved'));
    })
    .catch(() => {
      // The chunk failed to load (offline, new deploy): the app works without live updates.
      if (mine === generation) openedFor = null;
    });
}

function close(): void {
  generation++;
  socket?.disconnect();
  socket = null;
  openedFor = null;
}

/** Brings the connection in line with the session and the number of holders. */
function sync(): void {
  const { token, id, _id } = useSession.getState().user;
  const userId = id ?? _id;
  if (refs === 0 || !token || !userId) {
    if (openedFor) close();
    return;
  }
  if (openedFor !== userId) {
    close();
    open(userId);
  }
}

/**
 * Keeps the socket open while held; returns the release. The last release disconnects (deferred
 * a tick, so React's strict-mode unmount/remount does not reconnect).
 */
export function retainRealtime(): () => void {
  refs++;
  stopFollowingSession ??= useSession.subscribe(sync);
  sync();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    refs--;
    window.setTimeout(() => {
      if (refs > 0) return;
      stopFollowingSession?.();
      stopFollowingSession = null;
      sync();
    }, 0);
  };
}
