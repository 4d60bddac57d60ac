import type { FastifyInstance } from 'fastify';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, expect } from 'vitest';

const sockets: Socket[] = [];
afterAll(() => {
  for (const s of sockets) s.disconnect();
});

/** Listens on a free loopback port and returns the base URL (sockets need a real server). */
export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as { port: number };
  return `http://127.0.0.1:${port}`;
}

export interface Client {
  socket: Socket;
  notifications: { type: string; _id: string }[];
  counts: number[];
  /** Resolves with the reason when the server drops the socket. */
  disconnected: Promise<string>;
}

/** A signed-in browser tab: websocket only, token in the handshake, then register as SPEC.md 7 says. */
export async function client(url: string, token: string | null, registerAs?: string): Promise<Client> {
  const socket = connect(url, { transports: ['websocket'], auth: token ? { token } : {}, reconnection: false, forceNew: true });
  sockets.push(socket);
  const disconnected = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
  const c: Client = { socket, notifications: [], counts: [], disconnected };
  socket.on('newNotification', (n) => c.notifications.push(n));
  socket.on('unreadCountUpdate', (n) => c.counts.push(n));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  if (registerAs) {
    const result = await socket.timeout(5000).emitWithAck('register', registerAs);
    expect(result).toEqual({ ok: registerAs === tokenUser(token) });
  }
  return c;
}

/** The user id inside a token (its subject), to know what register should answer. */
function tokenUser(token: string | null): string | undefined {
  if (!token) return undefined;
  try {
    return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sub;
  } catch {
    return undefined;
  }
}
