import type autocannon from 'autocannon';
import { WriteLedger } from './write-ledger';

export interface Scenario {
  name: string;
  connections?: number;
  requests(): autocannon.Request[];
  /** Bodies of the read paths, served by the reference server for the ceiling. */
  samples?: { method: string; path: string; body: string }[];
  /** After the run: checks the data against what the responses acknowledged. */
  verify?(): Promise<string>;
}

const pick = <T>(items: T[]): T => items[Math.floor(Math.random() * items.length)]!;

async function json(base: string, path: string, init?: RequestInit) {
  const res = await fetch(base + path, init);
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return { body: await res.text(), status: res.status };
}

/** A fixed GET (possibly signed in), with its body captured for the reference server. */
async function read(base: string, name: string, path: string, token?: string): Promise<Scenario> {
  const headers = token ? { authorization: `Bearer ${token}` } : undefined;
  const { body } = await json(base, path, { headers });
  return { name, requests: () => [{ method: 'GET', path, headers }], samples: [{ method: 'GET', path, body }] };
}

/** The benchmarked paths of the issue, found on the seeded database. */
export async function scenarios(base: string): Promise<Scenario[]> {
  const feed = JSON.parse((await json(base, '/api/v1/blogs?limit=50&page=1')).body) as {
    blogs: { _id: string; blogId: string; title: string; creator: { username: string; _id: string } }[];
  };
  if (!feed.blogs.length) throw new Error('The database is empty: run `npm run seed -- --posts N` first.');
  const blog = feed.blogs[0]!;
  const older = JSON.parse((await json(base, '/api/v1/blogs?limit=4&page=50')).body) as { blogs: { title: string }[] };
  const rareTitle = (older.blogs[0] ?? blog).title;

  const tokens: string[] = [];
  const userIds: string[] = [];
  for (let i = 1; i <= 20; i++) {
    const res = await fetch(`${base}/api/v1/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `user${i}@seed.example`, password: 'password123' }),
    });
    if (!res.ok) continue;
    const { user } = (await res.json()) as { user: { token: string; id: string } };
    tokens.push(user.token);
    userIds.push(user.id);
  }
  const authorIds = [...new Set(feed.blogs.map((b) => b.creator._id))];

  const list: Scenario[] = [
    await read(base, 'feed page 1', '/api/v1/blogs?limit=4&page=1'),
    await read(base, 'feed page 50', '/api/v1/blogs?limit=4&page=50'),
    await read(base, 'feed page 1 (signed in)', '/api/v1/blogs?limit=4&page=1', tokens[0]),
    await read(base, 'blog page', `/api/v1/blogs/${blog.blogId}`),
    await read(base, 'blog page (signed in)', `/api/v1/blogs/${blog.blogId}`, tokens[0]),
    await read(base, 'search common word', '/api/v1/search-blogs?search=postgres&limit=10&page=1'),
    await read(base, 'search rare words', `/api/v1/search-blogs?search=${encodeURIComponent(rareTitle)}&limit=10&page=1`),
    await read(base, 'search prefix', '/api/v1/search-blogs?search=kube&limit=10&page=1'),
    await read(base, 'tag page', '/api/v1/search-blogs?tag=react&limit=10&page=1'),
    await read(base, 'profile', `/api/v1/users/${blog.creator.username}`),
    await read(base, 'profile blogs', `/api/v1/users/${blog.creator.username}/blogs?limit=10&page=1`),
    await read(base, 'feed (Atom)', '/feed.xml'),
    // Server-rendered pages (issue 13): head tags and first HTML, through the same public cache.
    await read(base, 'home (HTML)', '/'),
    await read(base, 'blog page (HTML)', `/blog/${blog.blogId}`),
  ];
  if (tokens.length) {
    list.push(await read(base, 'notifications (signed in)', '/api/v1/notifications?limit=4', tokens[0]));
    const blogs = feed.blogs.map((b) => ({ id: b._id, slug: b.blogId }));
    list.push(await writeMix(tokens, userIds, blogs, authorIds));
  }
  return list;
}

/**
 * Like toggles, comments and follow toggles (5:3:2) by 20 signed-in users. Every request entry
 * states its whole method, path, headers and body (autocannon reuses request objects per
 * connection). What was acknowledged is checked against the database afterwards.
 */
async function writeMix(
  tokens: string[],
  userIds: string[],
  blogs: { id: string; slug: string }[],
  authorIds: string[],
): Promise<Scenario> {
  const ledger = new WriteLedger();
  type Ctx = { user: number; pair: string };
  const auth = (ctx: Ctx) => {
    ctx.user = Math.floor(Math.random() * tokens.length);
    return { authorization: `Bearer ${tokens[ctx.user]}` };
  };
  const like: autocannon.Request = {
    setupRequest: (req, context) => {
      const ctx = context as Ctx;
      const headers = auth(ctx);
      const blog = pick(blogs);
      ctx.pair = `${userIds[ctx.user]}|${blog.id}`;
      ledger.likeSent(ctx.pair);
      return { ...req, method: 'POST', path: `/api/v1/blogs/like/${blog.slug}`, headers, body: undefined };
    },
    onResponse: (status, body, context) => ledger.likeAnswered((context as Ctx).pair, status, body),
  };
  const comment: autocannon.Request = {
    setupRequest: (req, ctx) => ({
      ...req,
      method: 'POST',
      path: `/api/v1/blogs/comment/${pick(blogs).slug}`,
      headers: { ...auth(ctx as Ctx), 'content-type': 'application/json' },
      body: JSON.stringify({ comment: 'Benchmark comment' }),
    }),
    onResponse: (status, body) => ledger.commentAnswered(status, body),
  };
  const follow: autocannon.Request = {
    setupRequest: (req, ctx) => {
      const headers = auth(ctx as Ctx);
      const target = pick(authorIds.filter((id) => id !== userIds[(ctx as Ctx).user]));
      return { ...req, method: 'PATCH', path: `/api/v1/follow/${target}`, headers, body: undefined };
    },
  };
  return {
    name: 'write mix (like, comment, follow)',
    requests: () => [like, comment, like, follow, like, comment, like, follow, like, comment],
    verify: () => ledger.verify(),
  };
}
