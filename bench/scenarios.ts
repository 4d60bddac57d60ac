import type autocannon from 'autocannon';

export interface Scenario {
  name: string;
  connections?: number;
  requests(): autocannon.Request[];
  /** Bodies of the read paths, served by the reference server for the ceiling. */
  samples?: { method: string; path: string; body: string }[];
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
    list.push({
      name: 'write mix (like, comment, follow)',
      requests: () => [
        {
          setupRequest: (req) => {
            const i = Math.floor(Math.random() * tokens.length);
            const headers = { authorization: `Bearer ${tokens[i]}`, 'content-type': 'application/json' };
            const r = Math.random();
            if (r < 0.5) return { ...req, method: 'POST', path: `/api/v1/blogs/like/${pick(blogIds)}`, headers };
            if (r < 0.8)
              return {
                ...req,
                method: 'POST',
                path: `/api/v1/blogs/comment/${pick(blogIds)}`,
                headers,
                body: JSON.stringify({ comment: 'Benchmark comment' }),
              };
            const target = pick(authorIds.filter((id) => id !== userIds[i]));
            return { ...req, method: 'PATCH', path: `/api/v1/follow/${target}`, headers, body: '{}' };
          },
        },
      ],
    });
  }
  return list;
}
