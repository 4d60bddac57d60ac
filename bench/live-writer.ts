/**
 * The live site's writer (live-site.ts): likes, comments and follows at a steady rate, each
 * checked by reading its page right after, or another request in their place (ControlRequest).
 */

export interface Post {
  slug: string;
  busy: boolean;
}
export interface Author {
  id: string;
  username: string;
  followers: number;
  busy: boolean;
}
export interface Reader {
  token: string;
  id: string;
}

export const pick = <T>(items: T[]): T => items[Math.floor(Math.random() * items.length)]!;

export async function getJson<T>(base: string, path: string, init?: RequestInit): Promise<{ status: number; body: T }> {
  const res = await fetch(base + path, init);
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as T };
}

/**
 * A request the writer sends instead of its writes (`--control "GET /api/v1/me"`), signed in as a
 * seeded reader, `:post` replaced by one of the hot posts, not checked: what any request of that
 * kind costs the readers at the same rate, beside what a write costs them.
 */
export interface ControlRequest {
  method: string;
  path: string;
}

export function parseControl(text: string): ControlRequest {
  const match = /^(GET|POST|PATCH|PUT|DELETE) (\/\S*)$/.exec(text.trim());
  if (!match) throw new Error('--control is a method and a path, e.g. "GET /api/v1/me" or "GET /api/v1/blogs/:post"');
  return { method: match[1]!, path: match[2]! };
}

/** Sends writes at a steady rate; each acknowledged one is checked by reading its page right after (unless `checks` is false). */
export class Writer {
  acknowledged = 0;
  errors = 0;
  checked = 0;
  readonly stale: string[] = [];
  private sent = 0;
  private timer?: NodeJS.Timeout;
  private readonly running = new Set<Promise<void>>();
  private started = 0;

  constructor(
    private readonly base: string,
    private readonly rate: number,
    private readonly posts: Post[],
    private readonly authors: Author[],
    private readonly readers: Reader[],
    private readonly checks = true,
    private readonly control?: ControlRequest,
  ) {}

  start(): void {
    if (!this.rate) return;
    this.started = performance.now();
    this.timer = setInterval(() => {
      const due = Math.floor(((performance.now() - this.started) / 1000) * this.rate);
      while (this.sent < due) {
        this.sent++;
        const p = this.one().catch((err) => {
          this.errors++;
          if (this.errors <= 3) console.error(`  write failed: ${err}`);
        });
        this.running.add(p);
        void p.finally(() => this.running.delete(p));
      }
    }, 5);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all([...this.running]);
  }

  private async one(): Promise<void> {
    if (this.control) return this.controlRequest(this.control);
    const reader = pick(this.readers);
    const auth = { authorization: `Bearer ${reader.token}` };
    const roll = Math.random();
    if (roll < 0.2) {
      const author = this.free(this.authors.filter((a) => a.id !== reader.id));
      if (author) return this.follow(author, reader, auth);
    }
    const post = this.free(this.posts);
    if (!post) return; // every hot post has a write in flight: skip this one (counted as not sent)
    post.busy = true;
    try {
      if (roll < 0.6) await this.like(post, auth);
      else await this.comment(post, auth);
    } finally {
      post.busy = false;
    }
  }

  private async controlRequest({ method, path }: ControlRequest): Promise<void> {
    const url = this.base + path.replace(':post', pick(this.posts).slug);
    const res = await fetch(url, { method, headers: { authorization: `Bearer ${pick(this.readers).token}` } });
    await res.text();
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status}`);
    this.acknowledged++;
  }

  private free<T extends { busy: boolean }>(items: T[]): T | undefined {
    const idle = items.filter((i) => !i.busy);
    return idle.length ? pick(idle) : undefined;
  }

  private async like(post: Post, auth: Record<string, string>): Promise<void> {
    const res = await getJson<{ likeCount: number }>(this.base, `/api/v1/blogs/like/${post.slug}`, { method: 'POST', headers: auth });
    if (res.status !== 200) throw new Error(`like: ${res.status}`);
    this.acknowledged++;
    if (!this.checks) return;
    const page = await getJson<{ blog: { likeCount: number } }>(this.base, `/api/v1/blogs/${post.slug}`);
    this.check(
      page.body.blog.likeCount === res.body.likeCount,
      `like on ${post.slug}: acknowledged ${res.body.likeCount}, page shows ${page.body.blog.likeCount}`,
    );
  }

  private async comment(post: Post, auth: Record<string, string>): Promise<void> {
    const res = await getJson<{ newComment: { _id: string } }>(this.base, `/api/v1/blogs/comment/${post.slug}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ comment: 'Live site comment' }),
    });
    if (res.status !== 201) throw new Error(`comment: ${res.status}`);
    this.acknowledged++;
    if (!this.checks) return;
    const list = await getJson<{ comments: { _id: string }[] }>(this.base, `/api/v1/blogs/${post.slug}/comments?page=1`);
    this.check(
      list.body.comments.some((c) => c._id === res.body.newComment._id),
      `comment on ${post.slug} missing from its first page`,
    );
  }

  private async follow(author: Author, reader: Reader, auth: Record<string, string>): Promise<void> {
    author.busy = true;
    try {
      const res = await getJson<{ following: boolean }>(this.base, `/api/v1/follow/${author.id}`, { method: 'PATCH', headers: auth });
      if (res.status !== 200) throw new Error(`follow: ${res.status}`);
      this.acknowledged++;
      author.followers += res.body.following ? 1 : -1;
      if (!this.checks) return;
      const profile = await getJson<{ user: { followerCount: number } }>(this.base, `/api/v1/users/${author.username}`);
      this.check(
        profile.body.user.followerCount === author.followers,
        `follow of ${author.username} by ${reader.id}: expected ${author.followers} followers, profile shows ${profile.body.user.followerCount}`,
      );
      author.followers = profile.body.user.followerCount; // stay in step after a mismatch
    } finally {
      author.busy = false;
    }
  }

  private check(ok: boolean, problem: string): void {
    this.checked++;
    if (!ok) this.stale.push(problem);
  }
}
