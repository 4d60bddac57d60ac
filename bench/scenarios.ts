import type autocannon from 'autocannon';

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
    blogs: { blogId: string; title: string; creator: { username: string; _id: string } }[];
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
  const blogIds = feed.blogs.map((b) => b.blogId);
  const authorIds = [...new Set(feed.blogs.map((b) => b.creator._id))];

  const list: Scenario[] = [
    await read(base, 'feed page 1', '/api/v1/blogs?limit=4&page=1'),
    await read(base, 'feed page 50', '/api/v1/blogs?limit=4&page=50'),
    await read(base, 'blog page', `/api/v1/blogs/${blog.blogId}`),
    await read(base, 'blog page (signed in)', `/api/v1/blogs/${blog.blogId}`, tokens[0]),
    await read(base, 'search common word', '/api/v1/search-blogs?search=postgres&limit=10&page=1'),
    await read(base, 'search rare words', `/api/v1/search-blogs?search=${encodeURIComponent(rareTitle)}&limit=10&page=1`),
    await read(base, 'search prefix', '/api/v1/search-blogs?search=kube&limit=10&page=1'),
    await read(base, 'tag page', '/api/v1/search-blogs?tag=react&limit=10&page=1'),
    await read(base, 'profile', `/api/v1/users/${blog.creator.username}`),
    await read(base, 'profile blogs', `/api/v1/users/${blog.creator.username}/blogs?limit=10&page=1`),
  ];
  if (tokens.length) {
    list.push(await read(base, 'notifications (signed in)', '/api/v1/notifications?limit=4', tokens[0]));
    list.push(await writeMix(base, tokens, userIds, blogIds, authorIds));
  }
  return list;
}

/** Sum of a counter over the blogs, read through the API. */
async function totals(base: string, blogIds: string[]) {
  let likes = 0;
  let comments = 0;
  for (const id of blogIds) {
    const { blog } = JSON.parse((await json(base, `/api/v1/blogs/${id}`)).body) as { blog: { likeCount: number; commentCount: number } };
    likes += blog.likeCount;
    comments += blog.commentCount;
  }
  return { likes, comments };
}

/**
 * Like toggles, comments and follow toggles (5:3:2) by 20 signed-in users. Every request entry
 * states its whole method, path, headers and body (autocannon reuses request objects per
 * connection). Acknowledged likes and comments are tallied and compared with the data after.
 */
async function writeMix(base: string, tokens: string[], userIds: string[], blogIds: string[], authorIds: string[]): Promise<Scenario> {
  const before = await totals(base, blogIds);
  const acked = { likes: 0, comments: 0 };
  type Ctx = { user: number };
  const auth = (ctx: Ctx) => {
    ctx.user = Math.floor(Math.random() * tokens.length);
    return { authorization: `Bearer ${tokens[ctx.user]}` };
  };
  const like: autocannon.Request = {
    setupRequest: (req, ctx) => ({ ...req, method: 'POST', path: `/api/v1/blogs/like/${pick(blogIds)}`, headers: auth(ctx as Ctx), body: undefined }),
    onResponse: (status, body) => {
      if (status === 200) acked.likes += (JSON.parse(body) as { liked: boolean }).liked ? 1 : -1;
    },
  };
  const comment: autocannon.Request = {
    setupRequest: (req, ctx) => ({
      ...req,
      method: 'POST',
      path: `/api/v1/blogs/comment/${pick(blogIds)}`,
      headers: { ...auth(ctx as Ctx), 'content-type': 'application/json' },
      body: JSON.stringify({ comment: 'Benchmark comment' }),
    }),
    onResponse: (status) => {
      if (status === 201) acked.comments++;
    },
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
    async verify() {
      const after = await totals(base, blogIds);
      const likes = after.likes - before.likes;
      const comments = after.comments - before.comments;
      const ok = likes === acked.likes && comments === acked.comments;
      return `${ok ? 'nothing lost' : 'MISMATCH'}: likes ${likes} in the data / ${acked.likes} acknowledged, comments ${comments} / ${acked.comments}`;
    },
  };
}
