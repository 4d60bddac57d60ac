import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog, postComment } from '../../../test/blogs';
import { bearer, createTestApp, createUser, ENGINE, type TestApp, type TestUser } from '../../../test/helpers';
import { newId } from '../../db/ids';

const TOKEN = 'metrics-token-for-tests-0123456789';

/** The value of one sample line, e.g. value(text, 'x_total{job="a"}'); undefined when absent. */
function value(text: string, sample: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${sample} `));
  return line === undefined ? undefined : Number(line.slice(sample.length + 1));
}

describe('metrics are off by default', () => {
  it('has no /metrics route and no metrics listener', async () => {
    const t = await createTestApp();
    try {
      expect((await t.app.inject({ url: '/metrics' })).statusCode).toBe(404);
      expect((await t.app.inject({ url: '/metrics', headers: bearer(TOKEN) })).statusCode).toBe(404);
      expect(t.app.metricsServer).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});

describe('metrics behind METRICS_TOKEN', () => {
  let t: TestApp;
  let author: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ metrics: { token: TOKEN } });
    author = await createUser(t);
  });
  afterAll(async () => t.close());
  const scrape = async () => {
    const res = await t.app.inject({ url: '/metrics', headers: bearer(TOKEN) });
    expect(res.statusCode).toBe(200);
    return res.body;
  };

  it('refuses a missing or wrong token', async () => {
    for (const headers of [{}, bearer('wrong'), bearer(`${TOKEN}x`), { authorization: TOKEN }]) {
      const res = await t.app.inject({ url: '/metrics', headers });
      expect(res.statusCode).toBe(401);
      expect(res.body).not.toContain('http_request_duration_seconds');
    }
  });

  it('answers Prometheus text, never cached', async () => {
    const res = await t.app.inject({ url: '/metrics', headers: bearer(TOKEN) });
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain('# TYPE http_request_duration_seconds histogram');
    expect(res.body).toContain('process_cpu_user_seconds_total');
  });

  it('times requests by route pattern and status, never by raw URL', async () => {
    const { blogId } = await createBlog(t, author, { title: 'Measured' });
    await t.app.inject({ url: `/api/v1/blogs/${blogId}` });
    await t.app.inject({ url: '/api/v1/blogs/no-such-blog' });
    await t.app.inject({ url: '/api/v1/no-such-route' });
    const text = await scrape();
    const pattern = 'route="/api/v1/blogs/:id"';
    expect(value(text, `http_request_duration_seconds_count{method="GET",${pattern},status_code="200"}`)).toBeGreaterThanOrEqual(1);
    expect(value(text, `http_request_duration_seconds_count{method="GET",${pattern},status_code="404"}`)).toBe(1);
    expect(value(text, 'http_request_duration_seconds_count{method="GET",route="unmatched",status_code="404"}')).toBe(1);
    expect(text).not.toContain(blogId);
    expect(text).not.toContain('no-such');
  });

  it('counts public cache hits, misses, invalidations and entries updated in place', async () => {
    const before = await scrape();
    await t.app.inject({ url: '/api/v1/blogs?limit=4&page=1' });
    await t.app.inject({ url: '/api/v1/blogs?limit=4&page=1' });
    const { blogId } = await createBlog(t, author, { title: 'Invalidates' });
    await t.app.inject({ url: `/api/v1/blogs/${blogId}/comments` });
    await postComment(t, author, blogId, 'Taken into the cached page');
    const after = await scrape();
    for (const name of ['hits', 'misses', 'invalidations', 'updates']) {
      const metric = `inkwell_public_cache_${name}_total`;
      expect(value(after, metric)!, metric).toBeGreaterThan(value(before, metric)!);
    }
  });

  it('reports query times, outbox depth, sockets and the database pool', async () => {
    // Two mails waiting for a retry (the worker would send due ones at once).
    const later = new Date(Date.now() + 3600_000).toISOString();
    for (const id of [newId(), newId()]) {
      await t.database.db
        .insertInto('mail_outbox')
        .values({
          id,
          to_address: 'a@example.com',
          subject: 's',
          text_body: 't',
          html_body: null,
          next_attempt_at: later,
          locked_until: null,
          sent_at: null,
          last_error: 'down',
          created_at: later,
        })
        .execute();
    }
    const pending = await t.database.db
      .selectFrom('mail_outbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('sent_at', 'is', null)
      .executeTakeFirstOrThrow();
    const text = await scrape();
    expect(value(text, 'inkwell_db_query_duration_seconds_count')).toBeGreaterThan(0);
    expect(Number(pending.n)).toBeGreaterThanOrEqual(2);
    expect(value(text, 'inkwell_mail_outbox_pending')).toBe(Number(pending.n));
    expect(value(text, 'inkwell_socket_connections')).toBe(0);
    if (ENGINE === 'postgres') expect(value(text, 'inkwell_db_pool_connections{state="total"}')).toBeGreaterThan(0);
  });

  it('counts job runs and what they removed; a second scrape sees new runs (no caching)', async () => {
    const first = await scrape();
    expect(value(first, 'inkwell_job_runs_total{job="sent-mail",outcome="ok"}')).toBeUndefined();
    await t.app.services.scheduler.runNow('sent-mail');
    await t.app.services.scheduler.runNow('sent-mail');
    const second = await scrape();
    expect(value(second, 'inkwell_job_runs_total{job="sent-mail",outcome="ok"}')).toBe(2);
    expect(value(second, 'inkwell_job_removed_total{job="sent-mail",kind="sentMail"}')).toBe(0);
    expect(value(second, 'inkwell_job_duration_seconds_count{job="sent-mail"}')).toBe(2);
  });
});

describe('metrics on a separate port', () => {
  it('serves /metrics on METRICS_PORT only, not on the public port', async () => {
    const t = await createTestApp({ metrics: { port: 0 } });
    try {
      const { port } = t.app.metricsServer!.address() as AddressInfo;
      await t.app.inject({ url: '/api/v1/health/live' });
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const text = await res.text();
      expect(value(text, 'http_request_duration_seconds_count{method="GET",route="/api/v1/health/live",status_code="200"}')).toBe(1);
      expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(404);
      expect((await t.app.inject({ url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
