/**
 * Realtime bench load: N signed-in sockets, and follow actions sent at a steady rate (open loop)
 * that each notify one socket's user. Latency is from the moment the HTTP request is sent to the
 * moment the matching newNotification arrives on the recipient's socket.
 */
import { performance } from 'node:perf_hooks';
import { io as connect, type Socket } from 'socket.io-client';
import { pool } from './realtime-setup';

export interface Session {
  id: string;
  token: string;
}

export interface SocketHolder {
  user: Session;
  instance: number;
  socket: Socket;
}

/** Opens one websocket per user (round-robin over the instances), registered into its user's room. */
export async function connectSockets(
  bases: string[],
  users: Session[],
  concurrency: number,
): Promise<{ holders: SocketHolder[]; seconds: number; failed: number }> {
  const started = performance.now();
  let failed = 0;
  const holders = await pool(users, concurrency, async (user, i) => {
    const instance = i % bases.length;
    const socket = connect(bases[instance]!, {
      transports: ['websocket'],
      auth: { token: user.token },
      // A dropped socket stays dropped: what it misses counts as lost.
      reconnection: false,
      forceNew: true,
      timeout: 30_000,
    });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      const ack = (await socket.timeout(30_000).emitWithAck('register', user.id)) as { ok: boolean };
      if (!ack.ok) throw new Error('register refused');
    } catch (err) {
      failed++;
      if (failed <= 3) console.error(`  socket ${i} on instance ${instance}: ${(err as Error).message}`);
    }
    return { user, instance, socket };
  });
  return { holders, seconds: (performance.now() - started) / 1000, failed };
}

export interface LoadOptions {
  bases: string[];
  holders: SocketHolder[];
  actors: Session[];
  /** Actions not counted, sent first at the same rate. */
  warmup: number;
  actions: number;
  rate: number;
  /** How long to wait for stragglers after the last HTTP answer. */
  drainMs: number;
  /** With several instances: send every action to an instance other than the recipient's socket's. */
  crossInstance: boolean;
}

export interface LoadResult {
  sent: number;
  httpErrors: number;
  delivered: number;
  lost: number;
  duplicates: number;
  unexpected: number;
  /** unreadCountUpdate events received (one is expected per delivered notification). */
  countEvents: number;
  drops: number;
  /** What the failed actions (warm-up included) answered: HTTP status, or the network error's code. */
  errorKinds: Record<string, number>;
  latency: Stats;
  /** Event arrival minus the HTTP answer's arrival (negative when the push beat the answer). */
  afterAnswer: Stats;
  http: Stats;
  seconds: number;
}

export interface Stats {
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

interface Pending {
  sentAt: number;
  ok?: boolean;
  receivedAt?: number;
  measured: boolean;
  httpMs?: number;
}

function stats(values: number[]): Stats {
  if (!values.length) return { p50: Number.NaN, p95: Number.NaN, p99: Number.NaN, max: Number.NaN };
  const sorted = Float64Array.from(values).sort();
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), max: sorted[sorted.length - 1]! };
}

/**
 * Action k: actor floor(k / N) % A follows socket user k % N (every pair distinct, so every
 * PATCH /follow is a new follow and creates exactly one 'follow' notification for that user).
 */
export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  const N = o.holders.length;
  const total = o.warmup + o.actions;
  if (total > N * o.actors.length) throw new Error(`at most ${N * o.actors.length} distinct follows with ${o.actors.length} actors`);
  const pending = new Map<string, Pending>();
  let duplicates = 0;
  let unexpected = 0;
  let countEvents = 0;
  let drops = 0;
  const key = (recipient: string, sender: string) => `${recipient}|${sender}`;

  for (const h of o.holders) {
    h.socket.on('newNotification', (n: { type?: string; sender?: { _id?: string } | null }) => {
      const at = performance.now();
      const p = n.type === 'follow' && n.sender?._id ? pending.get(key(h.user.id, n.sender._id)) : undefined;
      if (!p) unexpected++;
      else if (p.receivedAt !== undefined) duplicates++;
      else p.receivedAt = at;
    });
    h.socket.on('unreadCountUpdate', () => {
      countEvents++;
    });
    h.socket.on('disconnect', () => {
      drops++;
    });
  }

  const inflight: Promise<void>[] = [];
  let httpErrors = 0;
  const errorKinds: Record<string, number> = {};
  const failed = (kind: string) => {
    errorKinds[kind] = (errorKinds[kind] ?? 0) + 1;
  };
  let lastAnswer = 0;
  const fire = (k: number) => {
    const holder = o.holders[k % N]!;
    const actor = o.actors[Math.floor(k / N) % o.actors.length]!;
    const instance = o.crossInstance && o.bases.length > 1 ? (holder.instance + 1) % o.bases.length : k % o.bases.length;
    const p: Pending = { sentAt: performance.now(), measured: k >= o.warmup };
    pending.set(key(holder.user.id, actor.id), p);
    inflight.push(
      fetch(`${o.bases[instance]}/api/v1/follow/${holder.user.id}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${actor.token}` },
      })
        .then(async (res) => {
          const body = (await res.json()) as { following?: boolean };
          p.ok = res.ok && body.following === true;
          if (!p.ok) failed(`HTTP ${res.status}`);
        })
        .catch((err: Error & { cause?: { code?: string } }) => {
          p.ok = false;
          failed(err.cause?.code ?? err.name);
        })
        .finally(() => {
          lastAnswer = performance.now();
          p.httpMs = lastAnswer - p.sentAt;
          if (!p.ok && p.measured) httpErrors++;
        }),
    );
  };

  const interval = 1000 / o.rate;
  const started = performance.now();
  let k = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (k < total && started + k * interval <= now) fire(k++);
      if (k >= total) resolve();
      else setTimeout(tick, Math.max(0, started + k * interval - performance.now()));
    };
    tick();
  });
  await Promise.all(inflight);
  const seconds = (performance.now() - started) / 1000;

  const measured = [...pending.values()].filter((p) => p.measured && p.ok);
  while (measured.some((p) => p.receivedAt === undefined) && performance.now() - lastAnswer < o.drainMs) {
    await new Promise((r) => setTimeout(r, 50));
  }
  const delivered = measured.filter((p) => p.receivedAt !== undefined);
  return {
    sent: o.actions,
    httpErrors,
    delivered: delivered.length,
    lost: measured.length - delivered.length,
    duplicates,
    unexpected,
    countEvents,
    drops,
    errorKinds,
    latency: stats(delivered.map((p) => p.receivedAt! - p.sentAt)),
    afterAnswer: stats(delivered.map((p) => p.receivedAt! - p.sentAt - p.httpMs!)),
    http: stats(measured.map((p) => p.httpMs!)),
    seconds,
  };
}
