import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { Server } from 'socket.io';
import { resolveToken } from '../lib/auth-guard';
import type { TokenService } from '../lib/tokens';
import type { NotificationPush } from '../modules/notifications/notifications.service';
import type { UsersRepository } from '../modules/users/users.repo';

/** Events the server sends (SPEC.md 7 Realtime) and the one the client sends. */
export interface ServerToClient {
  newNotification(notification: unknown): void;
  unreadCountUpdate(count: number): void;
}
export interface ClientToServer {
  /** The optional acknowledgement tells the client its socket is in the room (no missed events). */
  register(userId: string, ack?: (result: { ok: boolean }) => void): void;
}

export const userRoom = (userId: string) => `user:${userId}`;

export interface Realtime extends NotificationPush {
  io: Server<ClientToServer, ServerToClient>;
  /** Drops every socket of a user whose tokens were revoked (password change, deletion). */
  disconnectUser(userId: string): void;
  close(): Promise<void>;
}

/**
 * socket.io on the app's own HTTP server, websocket transport only. A socket must present a
 * valid token; `register` joins the room of the token's own user and nothing else. With Redis,
 * the adapter carries room events between instances.
 */
export function createRealtime(
  app: FastifyInstance,
  deps: { tokens: TokenService; users: UsersRepository; redis?: Redis; redisPrefix?: string },
): Realtime {
  const io = new Server<ClientToServer, ServerToClient, Record<string, never>, { userId: string }>(app.server, {
    transports: ['websocket'],
    serveClient: false,
    cors: { origin: false },
    maxHttpBufferSize: 16 * 1024,
  });
  let pub: Redis | undefined;
  let sub: Redis | undefined;
  if (deps.redis) {
    pub = deps.redis.duplicate();
    sub = deps.redis.duplicate();
    pub.on('error', (err) => app.log.warn({ err }, 'realtime redis publisher error'));
    sub.on('error', (err) => app.log.warn({ err }, 'realtime redis subscriber error'));
    io.adapter(createAdapter(pub, sub, { key: `${deps.redisPrefix ?? ''}socket.io` }));
  }

  io.use(async (socket, next) => {
    const auth = socket.handshake.auth as { token?: unknown };
    const header = socket.handshake.headers.authorization;
    const token = typeof auth?.token === 'string' ? auth.token : header?.startsWith('Bearer ') ? header.slice(7) : null;
    const user = token ? await resolveToken(token, deps.tokens, deps.users).catch(() => null) : null;
    if (!user) return next(new Error('unauthorized'));
    socket.data.userId = user.id;
    next();
  });

  io.on('connection', (socket) => {
    socket.on('register', async (userId, ack) => {
      // Only the token's own user: a register with someone else's id joins nothing.
      const ok = userId === socket.data.userId;
      if (ok) await socket.join(userRoom(userId));
      if (typeof ack === 'function') ack({ ok });
    });
  });

  return {
    io,
    toUser(userId, event, payload) {
      io.to(userRoom(userId)).emit(event, payload as never);
    },
    // Alone, this instance knows every open socket; with Redis a socket may be on another one.
    mayBeListening: deps.redis ? () => true : (userId) => io.sockets.adapter.rooms.has(userRoom(userId)),
    disconnectUser(userId) {
      io.in(userRoom(userId)).disconnectSockets(true);
    },
    async close() {
      io.disconnectSockets(true);
      await new Promise<void>((resolve) => io.close(() => resolve()));
      pub?.disconnect();
      sub?.disconnect();
    },
  };
}
