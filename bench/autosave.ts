/**
 * npm run bench:autosave: what autosave and revision history cost per request, through the real
 * app (app.inject, no network) on a fresh SQLite file, or PostgreSQL with TEST_ENGINE=postgres and
 * TEST_DATABASE_URL. A 100-block post (about 2,000 words): 200 autosaves, then 60 updates (each
 * keeps a revision and trims the history to 50), then listing the history. Prints the median and
 * 95th percentile wall time and the CPU time per request: on a busy machine CPU is the fair figure.
 */
import { bearer, createTestApp, createUser, ENGINE } from '../apps/server/test/helpers';

const words = 'autosave keeps every word the writer types until the post is published again'.split(' ');
const content = (n: number) => ({
  blocks: Array.from({ length: 100 }, (_, i) => ({
    type: 'paragraph',
    data: { text: Array.from({ length: 20 }, (_, w) => words[(i + w + n) % words.length]).join(' ') },
  })),
});

async function main() {
  const t = await createTestApp({ rateLimitFactor: 1000 });
  const author = await createUser(t, { name: 'Bench Writer' });
  const headers = bearer(author.token);
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/v1/blogs',
    headers,
    payload: { title: 'Bench post', description: 'd', content: content(0) },
  });
  const { blogId } = created.json().blog;
  let version = 1;

  async function measure(label: string, times: number, call: (i: number) => Promise<{ statusCode: number; json(): any }>) {
    const walls: number[] = [];
    const cpu = process.cpuUsage();
    for (let i = 0; i < times; i++) {
      const start = performance.now();
      const res = await call(i);
      walls.push(performance.now() - start);
      if (res.statusCode >= 300) throw new Error(`${label}: ${res.statusCode} ${JSON.stringify(res.json())}`);
      version = res.json().version ?? version + 1;
    }
    const used = process.cpuUsage(cpu);
    walls.sort((a, b) => a - b);
    const at = (q: number) => walls[Math.min(walls.length - 1, Math.floor(q * walls.length))]?.toFixed(1);
    const cpuPer = ((used.user + used.system) / 1000 / times).toFixed(1);
    console.log(`| ${label} | ${times} | ${at(0.5)} | ${at(0.95)} | ${cpuPer} |`);
  }

  console.log(`\nAutosave and revisions on ${ENGINE}\n`);
  console.log('| request | count | median ms | p95 ms | CPU ms each |');
  console.log('| --- | --- | --- | --- | --- |');
  await measure('PUT /blogs/:id/autosave (100 blocks)', 200, (i) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/v1/blogs/${blogId}/autosave`,
      headers,
      payload: { title: 'Bench post', description: 'd', tags: [], content: content(i), version },
    }),
  );
  await measure('PATCH /blogs/:id with version (keeps a revision, trims to 50)', 60, (i) =>
    t.app.inject({
      method: 'PATCH',
      url: `/api/v1/blogs/${blogId}`,
      headers,
      payload: { title: 'Bench post', description: 'd', content: content(i + 1), version },
    }),
  );
  version = 0;
  await measure('GET /blogs/:id/revisions (50)', 50, () => t.app.inject({ url: `/api/v1/blogs/${blogId}/revisions`, headers }));
  await t.close();
}

void main();
