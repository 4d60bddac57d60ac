/**
 * The mixed load of bench/resilience.ts: reads (feed, blog page, search, tag, profile,
 * notifications signed in) and writes (like toggle, comment, follow toggle), plus a few requests
 * meant to fail (a missing blog: 404) so intended 4xx are told apart from real failures.
 * Every comment that was answered 201 is recorded with its id and unique text.
 */
import type { Req } from './resilience-load';

export interface AckedComment {
  id: string;
  blogId: string;
  text: string;
}

export interface Mix {
  next(): Req;
  acked: AckedComment[];
  users: number;
  blogs: number;
}

const pick = <T>(items: T[]): T => items[Math.floor(Math.random() * items.length)]!;
const SEARCH = ['postgres', 'react', 'kube', 'performance testing', 'docker'];
const TAGS = ['react', 'postgres', 'typescript', 'devops', 'security'];

async function getJson<T>(base: string, path: string): Promise<T> {
  const res = await fetch(base + path);
  const text = await res.text();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${text}`);
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`${path}: ${res.status} not JSON: ${text.slice(0, 200)}`);
  }
}

export async function buildMix(base: string, runTag: string, signIns = 20): Promise<Mix> {
  const blogIds: string[] = [];
  const authors = new Map<string, string>(); // id -> username
  for (let page = 1; page <= 3; page++) {
    const answer = await getJson<{ blogs: { blogId: string; creator: { _id: string; username: string } }[] }>(
      base,
      `/api/v1/blogs?limit=50&page=${page}`,
    );
    const { blogs } = answer;
    if (!Array.isArray(blogs))
      throw new Error(`/api/v1/blogs?limit=50&page=${page}: no blogs in the answer: ${JSON.stringify(answer).slice(0, 200)}`);
    for (const b of blogs) {
      blogIds.push(b.blogId);
      authors.set(b.creator._id, b.creator.username);
    }
  }
  if (!blogIds.length) throw new Error('The database is empty: seed it first.');
  const users: { token: string; id: string }[] = [];
  for (let i = 1; i <= signIns; i++) {
    const res = await fetch(`${base}/api/v1/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `user${i}@seed.example`, password: 'password123' }),
    });
    if (!res.ok) continue;
    const { user } = (await res.json()) as { user: { token: string; id: string } };
    users.push(user);
  }
  if (!users.length) throw new Error('No seeded user could sign in (userN@seed.example / password123).');
  const authorIds = [...authors.keys()];
  const usernames = [...authors.values()];
  const acked: AckedComment[] = [];
  let n = 0;

  const get = (kind: string, path: string, token?: string): Req => ({
    kind,
    method: 'GET',
    path,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });

  function next(): Req {
    const r = Math.random() * 100;
    const user = pick(users);
    const json = { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' };
    if (r < 18) return get('feed', `/api/v1/blogs?limit=4&page=${1 + Math.floor(Math.random() * 20)}`);
    if (r < 32) return get('blog page', `/api/v1/blogs/${pick(blogIds)}`, Math.random() < 0.3 ? user.token : undefined);
    if (r < 40) return get('search', `/api/v1/search-blogs?search=${encodeURIComponent(pick(SEARCH))}&limit=10&page=1`);
    if (r < 48) return get('tag', `/api/v1/search-blogs?tag=${encodeURIComponent(pick(TAGS))}&limit=10&page=1`);
    if (r < 56) return get('profile', `/api/v1/users/${pick(usernames)}`);
    if (r < 65) return get('notifications', '/api/v1/notifications?limit=10', user.token);
    if (r < 66) return { ...get('missing blog (404 intended)', '/api/v1/blogs/no-such-blog-0000'), intended: [404] };
    if (r < 78) return { kind: 'like toggle', method: 'POST', path: `/api/v1/blogs/like/${pick(blogIds)}`, headers: json, body: '{}' };
    if (r < 90) {
      const blogId = pick(blogIds);
      const text = `resilience ${runTag} #${++n}`;
      return {
        kind: 'comment',
        method: 'POST',
        path: `/api/v1/blogs/comment/${blogId}`,
        headers: json,
        body: JSON.stringify({ comment: text }),
        onResponse(status, body) {
          if (status !== 201) return;
          const id = (JSON.parse(body) as { newComment: { _id: string } }).newComment._id;
          acked.push({ id, blogId, text });
        },
      };
    }
    const others = authorIds.filter((id) => id !== user.id);
    return { kind: 'follow toggle', method: 'PATCH', path: `/api/v1/follow/${pick(others)}`, headers: json, body: '{}' };
  }

  return { next, acked, users: users.length, blogs: blogIds.length };
}
