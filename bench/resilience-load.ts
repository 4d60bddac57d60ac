/**
 * The load generator of bench/resilience.ts: a closed loop of N keep-alive connections, each
 * sending one request at a time. Every request is built whole (method, path, headers, body) by
 * the mix, so no connection ever reuses another request's fields, and every answer is recorded
 * with its start and end time, status (0 = connection error or timeout) and kind.
 */
import http from 'node:http';

export interface Req {
  kind: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Statuses this request is meant to get besides 2xx (e.g. 404 for a missing blog). */
  intended?: number[];
  /** Sees the answer (e.g. records an acknowledged write). */
  onResponse?(status: number, body: string): void;
}

export interface Sample {
  kind: string;
  method: string;
  /** ms since the load started (performance.now based). */
  start: number;
  end: number;
  status: number;
  intended: boolean;
  error?: string;
  /** Kept for non-2xx answers only (bodies of 503s are checked). */
  body?: string;
}

export interface LoadRun {
  samples: Sample[];
  /** performance.now() when the load started; sample times are relative to it. */
  t0: number;
  /** Resolves when every connection has stopped. */
  done: Promise<void>;
  stop(): void;
  /** ms since t0. */
  now(): number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function send(
  agent: http.Agent,
  host: string,
  port: number,
  req: Req,
  timeoutMs: number,
): Promise<{ status: number; body: string; error?: string }> {
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = { ...req.headers };
    if (req.body !== undefined) headers['content-length'] = Buffer.byteLength(req.body);
    let settled = false;
    const finish = (v: { status: number; body: string; error?: string }) => {
      if (settled) return;
      settled = true;
      resolve(v);
    };
    const r = http.request({ host, port, method: req.method, path: req.path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => finish({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (err) => finish({ status: 0, body: '', error: (err as NodeJS.ErrnoException).code ?? err.message }));
    });
    r.setTimeout(timeoutMs, () => {
      r.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' }));
    });
    r.on('error', (err) => finish({ status: 0, body: '', error: (err as NodeJS.ErrnoException).code ?? err.message }));
    if (req.body !== undefined) r.write(req.body);
    r.end();
  });
}

/** Starts `connections` request loops against base until stop() (or `seconds`, if given). */
export function startLoad(opts: { base: string; connections: number; next: () => Req; seconds?: number; timeoutMs?: number }): LoadRun {
  const url = new URL(opts.base);
  const host = url.hostname;
  const port = Number(url.port);
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.connections, maxFreeSockets: opts.connections });
  const samples: Sample[] = [];
  const t0 = performance.now();
  const now = () => performance.now() - t0;
  let stopped = false;
  const timer = opts.seconds ? setTimeout(() => (stopped = true), opts.seconds * 1000) : undefined;

  async function loop() {
    while (!stopped) {
      const req = opts.next();
      const start = now();
      const res = await send(agent, host, port, req, opts.timeoutMs ?? 10_000);
      const end = now();
      const ok = res.status >= 200 && res.status < 300;
      const intended = ok || (req.intended?.includes(res.status) ?? false);
      samples.push({
        kind: req.kind,
        method: req.method,
        start,
        end,
        status: res.status,
        intended,
        error: res.error,
        body: ok ? undefined : res.body.slice(0, 300),
      });
      if (res.status !== 0) req.onResponse?.(res.status, res.body);
      // A refused connection answers at once: don't spin.
      if (res.status === 0) await sleep(20);
    }
  }
  const loops = Array.from({ length: opts.connections }, () => loop());
  const done = Promise.all(loops).then(() => {
    if (timer) clearTimeout(timer);
    agent.destroy();
  });
  return {
    samples,
    t0,
    done,
    now,
    stop: () => {
      stopped = true;
    },
  };
}

export function percentile(values: number[], p: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export interface Summary {
  requests: number;
  reqPerSec: number;
  p50: number;
  p99: number;
  /** Connection errors and timeouts. */
  errors: number;
  errorCodes: Record<string, number>;
  non2xx: number;
  /** Non-2xx answers by status. */
  byStatus: Record<string, number>;
  /** Non-2xx answers that were not intended (by status). */
  unintended: Record<string, number>;
  unintendedCount: number;
  byKind: Record<string, { n: number; non2xx: number; p99: number }>;
}

export function summarize(samples: Sample[], seconds: number): Summary {
  const lat = samples.map((s) => s.end - s.start);
  const byStatus: Record<string, number> = {};
  const unintended: Record<string, number> = {};
  const errorCodes: Record<string, number> = {};
  const kinds = new Map<string, Sample[]>();
  let errors = 0;
  let non2xx = 0;
  let unintendedCount = 0;
  for (const s of samples) {
    const list = kinds.get(s.kind) ?? [];
    if (!list.length) kinds.set(s.kind, list);
    list.push(s);
    if (s.status === 0) {
      errors++;
      errorCodes[s.error ?? '?'] = (errorCodes[s.error ?? '?'] ?? 0) + 1;
      continue;
    }
    if (s.status >= 200 && s.status < 300) continue;
    non2xx++;
    byStatus[s.status] = (byStatus[s.status] ?? 0) + 1;
    if (!s.intended) {
      unintendedCount++;
      const key = `${s.status} ${s.kind}`;
      unintended[key] = (unintended[key] ?? 0) + 1;
    }
  }
  const byKind: Summary['byKind'] = {};
  for (const [kind, list] of kinds) {
    byKind[kind] = {
      n: list.length,
      non2xx: list.filter((s) => s.status !== 0 && (s.status < 200 || s.status >= 300)).length,
      p99: Math.round(
        percentile(
          list.map((s) => s.end - s.start),
          99,
        ),
      ),
    };
  }
  return {
    requests: samples.length,
    reqPerSec: samples.length / seconds,
    p50: Math.round(percentile(lat, 50) * 10) / 10,
    p99: Math.round(percentile(lat, 99) * 10) / 10,
    errors,
    errorCodes,
    non2xx,
    byStatus,
    unintended,
    unintendedCount,
    byKind,
  };
}
