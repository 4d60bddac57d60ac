import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import { type Author, type ControlRequest, getJson, type Post, type Reader, Writer } from './live-writer';

/**
 * The live site (issue 14): the anonymous read mix (feed pages, the hot posts' pages, a tag page,
 * a profile) at full speed while signed-in users like, comment and follow at a steady rate.
 * Writes go to the same hot posts and authors the readers read, so every write drops entries
 * they use (or, with WriteTargets 'unread', to posts and authors no reader reads). After each
 * acknowledged write, the writer reads that write's page as an anonymous reader and checks the
 * write shows (a like: the acknowledged count; a comment: on the first page of comments; a
 * follow: the target's follower count). One write at a time per post and per followed author,
 * so the expected value is known.
 */

export interface LivePhase {
  writesPerSec: number;
  reads: autocannon.Result;
  writes: number;
  writeErrors: number;
  checked: number;
  stale: string[];
  load: string;
  /** CPU seconds the server process used during the phase (Linux /proc), when known. */
  serverCpu?: number;
  /** Share of the machine's CPU time the hypervisor gave to others during the phase (steal), when known. */
  steal?: number;
}

/**
 * CPU seconds a process has used (user + system), from /proc: on a shared machine the server
 * gets a varying share of its core, so reads per CPU second of the server compare phases fairly.
 */
export function cpuSeconds(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    // Fields after the command name (which may hold spaces): utime and stime are 14th and 15th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}

/**
 * The machine's CPU time so far, and how much of it was stolen (/proc/stat's first line): on a
 * shared VM the host now and then takes 12–26 % of a core for minutes, and a phase then reads
 * slower for reasons outside the server (docs/performance.md, twelfth session).
 */
function machineTicks(): { total: number; steal: number } | undefined {
  try {
    const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/);
    // user nice system idle iowait irq softirq steal (guest time is already inside user and nice)
    const ticks = fields.slice(0, 8).map(Number);
    return { total: ticks.reduce((a, b) => a + b, 0), steal: ticks[7] ?? 0 };
  } catch {
    return undefined;
  }
}

/** The steal share between two machineTicks() readings. */
function stealShare(before: ReturnType<typeof machineTicks>, after: ReturnType<typeof machineTicks>): number | undefined {
  if (!before || !after || after.total <= before.total) return undefined;
  return (after.steal - before.steal) / (after.total - before.total);
}

/**
 * Where the writer writes: 'read', the posts and authors the readers read (every write drops or
 * refreshes entries they use); 'unread', posts 101-150 and their authors, which no reader reads:
 * the same writes with nothing they show to the readers, so a loss left is the writes' own CPU.
 */
export type WriteTargets = 'read' | 'unread';

type FeedCard = { blogId: string; tags: string[]; creator: { _id: string; username: string } };

/** The readers' posts (the 50 newest), the writer's posts and authors with their follower counts, and 20 signed-in writers. */
async function liveSetup(base: string, targets: WriteTargets = 'read') {
  const newest = async (page: number) => (await getJson<{ blogs: FeedCard[] }>(base, `/api/v1/blogs?limit=50&page=${page}`)).body.blogs;
  const feed = { blogs: await newest(1) };
  if (!feed.blogs.length) throw new Error('The database is empty: run `npm run seed -- --posts N` first.');
  const written = targets === 'read' ? feed.blogs : await newest(3);
  if (!written.length) throw new Error('--write-targets unread needs at least 101 posts.');
  const posts: Post[] = written.map((b) => ({ slug: b.blogId, busy: false }));
  // Unread targets: only authors of none of the newest 50 (whose profiles a reader may read).
  const readAuthors = new Set(targets === 'read' ? [] : feed.blogs.map((b) => b.creator._id));
  const authors = new Map<string, Author>();
  for (const b of written) {
    if (authors.has(b.creator._id) || readAuthors.has(b.creator._id)) continue;
    const profile = await getJson<{ user: { followerCount: number } }>(base, `/api/v1/users/${b.creator.username}`);
    authors.set(b.creator._id, {
      id: b.creator._id,
      username: b.creator.username,
      followers: profile.body.user.followerCount,
      busy: false,
    });
  }
  const readers: Reader[] = [];
  for (let i = 1; i <= 20; i++) {
    const res = await getJson<{ user?: { token: string; id: string } }>(base, '/api/v1/signin', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `user${i}@seed.example`, password: 'password123' }),
    });
    if (res.body.user) readers.push({ token: res.body.user.token, id: res.body.user.id });
  }
  if (!readers.length) throw new Error('No seeded user could sign in (user1@seed.example … user20@seed.example).');

  return { feed, posts, authors, readers };
}

export async function liveSite(
  base: string,
  options: {
    rates: number[];
    duration: number;
    warmup: number;
    writeWarmup: number;
    connections: number;
    serverPid?: number;
    targets?: WriteTargets;
    control?: ControlRequest;
  },
): Promise<LivePhase[]> {
  const { feed, posts, authors, readers } = await liveSetup(base, options.targets);
  const tag = feed.blogs.find((b) => b.tags.length)?.tags[0] ?? 'react';
  const first = feed.blogs[0]!;
  const readPaths = [
    '/api/v1/blogs?limit=10&page=1',
    '/api/v1/blogs?limit=10&page=2',
    ...posts.slice(0, 20).map((p) => `/api/v1/blogs/${p.slug}`),
    `/api/v1/search-blogs?tag=${encodeURIComponent(tag)}&limit=10&page=1`,
    `/api/v1/users/${first.creator.username}`,
  ];
  const requests: autocannon.Request[] = readPaths.map((path) => ({ method: 'GET', path }));

  const phases: LivePhase[] = [];
  // The read path's first minutes still run colder code: the first read-only phase came out 5-10 %
  // below the last, which made the writes' loss look smaller. One longer warm-up of the reads first.
  await autocannon({ url: base, connections: options.connections, duration: options.warmup * 3, requests });
  // The write path is hundreds of functions, each optimized by V8 only after enough calls: at 100
  // writes/s it still cost ~1.6 times its steady figure after 20 s, and settled after about a
  // minute (docs/performance.md, ninth session). A live site has been taking writes for hours, so
  // the writes run with the reads first, at the highest rate, before any phase is measured.
  const writing = (rate: number, during: () => Promise<unknown>) =>
    whileWriting(new Writer(base, rate, posts, [...authors.values()], readers, true, options.control), during);
  if (options.writeWarmup > 0) {
    await writing(Math.max(...options.rates), () =>
      autocannon({ url: base, connections: options.connections, duration: options.writeWarmup, requests }),
    );
  }
  for (const rate of options.rates) {
    await writing(rate, () => autocannon({ url: base, connections: options.connections, duration: options.warmup, requests }));
    const load = loadavg()[0]!.toFixed(2);
    const writer = new Writer(base, rate, posts, [...authors.values()], readers, true, options.control);
    const cpuBefore = cpuSeconds(options.serverPid);
    const ticksBefore = machineTicks();
    writer.start();
    const reads = await autocannon({ url: base, connections: options.connections, duration: options.duration, requests });
    const cpuAfter = cpuSeconds(options.serverPid);
    const steal = stealShare(ticksBefore, machineTicks());
    await writer.stop();
    phases.push({
      serverCpu: cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : undefined,
      writesPerSec: rate,
      reads,
      writes: writer.acknowledged,
      writeErrors: writer.errors,
      checked: writer.checked,
      stale: writer.stale,
      load,
      steal,
    });
    console.error(
      `  live site, ${rate} writes/s: ${Math.round(reads.requests.average)} reads/s, ${writer.acknowledged} writes, ${writer.errors} write errors, ${writer.stale.length}/${writer.checked} stale (load ${load}${steal === undefined ? '' : `, steal ${(steal * 100).toFixed(0)} %`})`,
    );
  }
  return phases;
}

const sleep = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

/** Runs `during` while `writer` sends its writes (a warm-up: nothing is measured). */
async function whileWriting(writer: Writer, during: () => Promise<unknown>): Promise<void> {
  writer.start();
  try {
    await during();
  } finally {
    await writer.stop();
  }
}

/**
 * The live site's writer with no readers: server CPU (every thread, from /proc) per write and
 * its check read, at each rate. What the writes themselves cost, cold code included.
 */
export async function writerAlone(
  base: string,
  options: {
    rates: number[];
    duration: number;
    warmup: number;
    writeWarmup: number;
    serverPid: number;
    targets?: WriteTargets;
    /** false: the writes alone, without the read that checks each (what the checks cost, by difference). */
    checks?: boolean;
  },
): Promise<{ writesPerSec: number; writes: number; cpuMsPerWrite: number; stale: number; errors: number }[]> {
  const { posts, authors, readers } = await liveSetup(base, options.targets);
  const writer = (rate: number) => new Writer(base, rate, posts, [...authors.values()], readers, options.checks);
  const writing = (rate: number, seconds: number) => whileWriting(writer(rate), () => sleep(seconds));
  // As in liveSite: the write path optimized by V8 first, as on a site that has been running.
  if (options.writeWarmup > 0) await writing(Math.max(...options.rates), options.writeWarmup);
  const rows = [];
  for (const rate of options.rates) {
    await writing(rate, options.warmup);
    const measured = writer(rate);
    const before = cpuSeconds(options.serverPid) ?? Number.NaN;
    measured.start();
    await sleep(options.duration);
    await measured.stop();
    const used = (cpuSeconds(options.serverPid) ?? Number.NaN) - before;
    rows.push({
      writesPerSec: rate,
      writes: measured.acknowledged,
      cpuMsPerWrite: (used * 1000) / measured.acknowledged,
      stale: measured.stale.length,
      errors: measured.errors,
    });
  }
  return rows;
}
