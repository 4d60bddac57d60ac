import { REALTIME_LIMITS } from '@inkwell/core';
import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { Server, type Socket } from 'socket.io';
import type { TokenService } from '../lib/tokens';
import type { NotificationPush } from '../modules/notifications/notifications.service';
import type { UsersRepository } from '../modules/users/users.repo';

/** Events the server sends (SPEC.md 7 Realtime) and the one the client sends. */
export interface ServerToClient {
  newNotification(notification: unknown): void;
  unreadCountUpdate(count: number): void;
  /** A notification of this user was taken back (an unlike, an unfollow): lists should be read again. */
  notificationRemoved(): void;
}
export interface ClientToServer {
  /** The optional acknowledgement tells the client its socket is in the room (no missed events). */
  register(userId: string, ack?: (result: { ok: boolean }) => void): void;
}

export const userRoom = (userId: string) => `user:${userId}`;
/** Every socket of a user, registered or not, joins this room at connection: revocation empties it. */
export const sessionsRoom = (userId: string) => `sessions:${userId}`;

/** What the handshake proved: whose token, at which token version, valid until when (ms). */
interface SocketData {
  userId: string;
  tokenVersion: number;
  expiresAt: number;
}
type RealtimeSocket = Socket<ClientToServer, ServerToClient, Record<string, never>, SocketData>;

/** setTimeout's longest delay (about 24.8 days); a later expiry re-arms the timer. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Disconnects the socket when its token expires; the timer goes with the socket. */
function expireAt(socket: RealtimeSocket, expiresAt: number): void {
  let timer: NodeJS.Timeout;
  const arm = () => {
    const left = expiresAt - Date.now();
    if (left <= 0) {
      socket.disconnect(true);
      return;
    }
    timer = setTimeout(arm, Math.min(left, MAX_TIMER_MS));
    timer.unref();
  };
  arm();
  socket.once('disconnect', () => clearTimeout(timer));
}

/** Drops a socket that sends more than REALTIME_LIMITS.messagesPerMinute (a fixed window per socket). */
function limitMessages(socket: RealtimeSocket): void {
  let windowStart = Date.now();
  let count = 0;
  socket.use((_packet, next) => {
    const now = Date.now();
    if (now - windowStart >= 60_000) {
      windowStart = now;
      count = 0;
    }
    if (++count > REALTIME_LIMITS.messagesPerMinute) socket.disconnect(true);
    else next();
  });
}

/** Users checked in one query by the periodic recheck. */
const RECHECK_BATCH = 500;

export interface Realtime extends NotificationPush {
  io: Server<ClientToServer, ServerToClient, Record<string, never>, SocketData>;
  /** Drops every socket of a user whose tokens were revoked (password change, deletion), on every instance. */
  disconnectUser(userId: string): void;
  close(): Promise<void>;
}

/**
 * socket.io on the app's own HTTP server, websocket transport only. A socket must present a
 * valid token; `register` joins the room of the token's own user and nothing else, and only while
 * the token is still current. A socket is dropped when its token expires (a timer per socket) and
 * when its user's tokens are revoked. With Redis, the adapter carries room events, and so the
 * revocation's disconnect, between instances.
 */
export function createRealtime(
  app: FastifyInstance,
  deps: { tokens: TokenService; users: UsersRepository; redis?: Redis; redisPrefix?: string; recheckMs?: number },
): Realtime {
  const io = new Server<ClientToServer, ServerToClient, Record<string, never>, SocketData>(app.server, {
    transports: ['websocket'],
    serveClient: false,
    cors: { origin: false },
    maxHttpBufferSize: 16 * 1024,
  });
  let pub: Redis | undefined;
  let sub: Redis | undefined;
  if (deps.redis) {
    pub = deps.redis.duplicate();
    // Subscriptions wait for Redis however long it is away (a failed SUBSCRIBE would never be
    // retried). The adapter never awaits its commands (publish on every broadcast, (un)subscribe
    // at start and close), so each gets a handler: a Redis that is down, or a client closed with
    // a command in flight, must not end the process with an unhandled rejection.
    sub = deps.redis.duplicate({ maxRetriesPerRequest: null });
    catchUnawaitedErrors(sub, ['subscribe', 'psubscribe', 'unsubscribe', 'punsubscribe'], (err) =>
      app.log.warn({ err }, 'realtime redis (un)subscribe failed'),
    );
    catchUnawaitedErrors(pub, ['publish'], (err) => app.log.warn({ err }, 'realtime redis publish failed'));
    pub.on('error', (err) => app.log.warn({ err }, 'realtime redis publisher error'));
    sub.on('error', (err) => app.log.warn({ err }, 'realtime redis subscriber error'));
    io.adapter(createAdapter(pub, sub, { key: `${deps.redisPrefix ?? ''}socket.io` }));
  }

  /**
   * Whether the token the socket connected with is still current (not revoked by a token-version
   * bump, not expired); null when the database could not say. The handshake needs a yes; a socket
   * already connected is dropped only on a definite no.
   */
  const stillValid = async (socket: RealtimeSocket): Promise<boolean | null> => {
    if (socket.data.expiresAt <= Date.now()) return false;
    try {
      const state = await deps.users.findAuthState(socket.data.userId);
      return !!state && state.token_version === socket.data.tokenVersion;
    } catch {
      return null;
    }
  };

  /** This instance's open sockets of a user (each joins sessionsRoom at connection). */
  const openSockets = (userId: string) => io.of('/').adapter.rooms.get(sessionsRoom(userId))?.size ?? 0;

  io.use(async (socket, next) => {
    const auth = socket.handshake.auth as { token?: unknown };
    const header = socket.handshake.headers.authorization;
    const token = typeof auth?.token === 'string' ? auth.token : header?.startsWith('Bearer ') ? header.slice(7) : null;
    const verified = token ? await deps.tokens.verifyWithExpiry(token) : null;
    if (!verified) return next(new Error('unauthorized'));
    socket.data.userId = verified.claims.sub;
    socket.data.tokenVersion = verified.claims.ver;
    socket.data.expiresAt = verified.expiresAt;
    if ((await stillValid(socket)) !== true) return next(new Error('unauthorized'));
    if (openSockets(socket.data.userId) >= REALTIME_LIMITS.socketsPerUser) return next(new Error('too many connections'));
    next();
  });

  io.on('connection', async (socket) => {
    expireAt(socket, socket.data.expiresAt);
    limitMessages(socket);
    socket.on('register', async (userId, ack) => {
      // Only the token's own user, and only while that token is current: a socket that outlived a
      // revocation (or missed its disconnect) joins nothing and is dropped.
      if ((await stillValid(socket)) === false) {
        if (typeof ack === 'function') ack({ ok: false });
        socket.disconnect(true);
        return;
      }
      const ok = userId === socket.data.userId;
      if (ok) await socket.join(userRoom(userId));
      if (typeof ack === 'function') ack({ ok });
    });
    await socket.join(sessionsRoom(socket.data.userId));
    // Handshakes that passed the count together: the ones past the limit go.
    if (openSockets(socket.data.userId) > REALTIME_LIMITS.socketsPerUser) {
      socket.disconnect(true);
      return;
    }
    // A revocation between the handshake's check and this join did not reach this socket: look again.
    if ((await stillValid(socket)) === false) socket.disconnect(true);
  });

  /**
   * Every open socket's token checked again now and then, a batch of users a query: a revocation
   * this instance did not hear (an admin command run without Redis) ends its sockets within
   * REALTIME_LIMITS.recheckMs instead of at the token's expiry. A database that cannot answer drops nothing.
   */
  const recheck = async () => {
    const byUser = new Map<string, RealtimeSocket[]>();
    for (const socket of io.of('/').sockets.values()) {
      const list = byUser.get(socket.data.userId);
      if (list) list.push(socket);
      else byUser.set(socket.data.userId, [socket]);
    }
    const ids = [...byUser.keys()];
    for (let i = 0; i < ids.length; i += RECHECK_BATCH) {
      const batch = ids.slice(i, i + RECHECK_BATCH);
      const versions = await deps.users.tokenVersions(batch);
      for (const id of batch) {
        for (const socket of byUser.get(id) ?? []) if (versions.get(id) !== socket.data.tokenVersion) socket.disconnect(true);
      }
    }
  };
  const recheckTimer = setInterval(
    () => void recheck().catch((err) => app.log.warn({ err }, 'realtime: could not recheck open sockets')),
    deps.recheckMs ?? REALTIME_LIMITS.recheckMs,
  );
  recheckTimer.unref();

  return {
    io,
    toUser(userId, event, payload) {
      io.to(userRoom(userId)).emit(event, payload as never);
    },
    // Alone, this instance knows every open socket; with Redis a socket may be on another one.
    mayBeListening: deps.redis ? () => true : (userId) => io.sockets.adapter.rooms.has(userRoom(userId)),
    disconnectUser(userId) {
      io.in(sessionsRoom(userId)).disconnectSockets(true);
    },
    async close() {
      clearInterval(recheckTimer);
      // This instance's sockets only: through the adapter the call would reach every instance's.
      io.local.disconnectSockets(true);
      await new Promise<void>((resolve) => io.close(() => resolve()));
      pub?.disconnect();
      sub?.disconnect();
    },
  };
}

/** Gives the promise of each call to these client methods a rejection handler (the caller never awaits it). */
function catchUnawaitedErrors(
  client: Redis,
  methods: readonly ('subscribe' | 'psubscribe' | 'unsubscribe' | 'punsubscribe' | 'publish')[],
  onError: (err: unknown) => void,
): void {
  for (const method of methods) {
    const original = client[method].bind(client) as (...args: unknown[]) => Promise<unknown>;
    (client as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
      const result = original(...args);
      result.catch(onError);
      return result;
    };
  }
}
