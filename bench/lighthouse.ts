/**
 * npm run bench:lighthouse [-- --runs 3 --json out.json --reports dir --posts 200]
 *
 * Lighthouse (performance category only, its default mobile profile with simulated throttling)
 * on `/` and `/blog/{id}` of the built app served by the built server (apps/server/dist, NODE_ENV
 * production). Uses Debian's Chromium (CHROME_PATH, else /usr/bin/chromium); never downloads a
 * browser. The database is DATA_DIR (or DATABASE_URL) when set, else a temporary SQLite folder
 * seeded with `bench/seed.ts --posts 200`. Each page is run `--runs` times in a fresh browser and
 * the table shows the median of each figure.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { median } from './stats';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    json: { type: 'string' },
    reports: { type: 'string' },
    posts: { type: 'string', default: '200' },
    port: { type: 'string' },
  },
});
const runs = Math.max(1, Number(values.runs));
const root = path.resolve(import.meta.dirname, '..');
const chromePath = process.env.CHROME_PATH || '/usr/bin/chromium';
const chromeFlags = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'];
const tsx = path.join(root, 'node_modules/tsx/dist/cli.mjs');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

async function waitFor(url: string, child: ChildProcess) {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

interface PageRun {
  score: number;
  /** Lighthouse's SEO category (issue 13: 100 on / and /blog/{id}). */
  seo: number;
  lcp: number;
  fcp: number;
  tbt: number;
  cls: number;
  bytes: number;
  speedIndex: number;
  /** Lighthouse's CPU benchmark at the time of the run: lower means a busier or slower machine. */
  benchmarkIndex: number;
  lcpElement?: string;
  /** Failed audits with an estimated saving, for finding out why a score is low. */
  opportunities: { id: string; title: string; displayValue?: string; metricSavings?: Record<string, number> }[];
}

async function audit(url: string, reportFile?: string): Promise<PageRun> {
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags, logLevel: 'silent' });
  try {
    const result = await lighthouse(url, { port: chrome.port, onlyCategories: ['performance', 'seo'], output: 'json', logLevel: 'error' });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    if (reportFile) writeFileSync(reportFile, result.report as string);
    const num = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
    const lcpDetails = lhr.audits['largest-contentful-paint-element']?.details as
      | { items?: { items?: { node?: { selector?: string; snippet?: string } }[] }[] }
      | undefined;
    const node = lcpDetails?.items?.[0]?.items?.[0]?.node;
    const opportunities = Object.values(lhr.audits)
      .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'notApplicable')
      .map((a) => ({
        id: a.id,
        title: a.title,
        displayValue: a.displayValue,
        metricSavings: a.metricSavings as Record<string, number> | undefined,
      }));
    return {
      score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      seo: Math.round((lhr.categories.seo?.score ?? 0) * 100),
      lcp: num('largest-contentful-paint'),
      fcp: num('first-contentful-paint'),
      tbt: num('total-blocking-time'),
      cls: num('cumulative-layout-shift'),
      bytes: num('total-byte-weight'),
      speedIndex: num('speed-index'),
      benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
      lcpElement: node ? `${node.selector ?? ''} ${node.snippet ?? ''}`.trim() : undefined,
      opportunities,
    };
  } finally {
    chrome.kill();
  }
}

async function main() {
  let tempDir: string | undefined;
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (!env.DATA_DIR && !env.DATABASE_URL) {
    tempDir = mkdtempSync(path.join(tmpdir(), 'inkwell-lighthouse-'));
    env.DATA_DIR = tempDir;
    console.error(`Seeding ${values.posts} posts into ${tempDir}`);
    const seed = spawn(process.execPath, [tsx, path.join(root, 'bench/seed.ts'), '--posts', values.posts], {
      cwd: root,
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if ((await exited(seed)) !== 0) throw new Error('seeding failed');
  }

  const port = values.port ? Number(values.port) : await freePort();
  const server = spawn(process.execPath, [path.join(root, 'apps/server/dist/main.js')], {
    cwd: root,
    env: {
      ...env,
      NODE_ENV: 'production',
      ENV_FILE: 'none',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_FACTOR: '100000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stopServer = async () => {
    if (server.exitCode === null && server.signalCode === null && server.pid) {
      process.kill(server.pid, 'SIGTERM');
      await exited(server);
    }
  };
  process.on('exit', () => {
    if (server.exitCode === null && server.signalCode === null && server.pid) process.kill(server.pid, 'SIGKILL');
  });

  const results: { page: string; url: string; runs: PageRun[] }[] = [];
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitFor(`${base}/api/v1/health`, server);
    const feed = (await (await fetch(`${base}/api/v1/blogs?limit=1`)).json()) as { blogs?: { blogId: string }[] };
    const blogId = feed.blogs?.[0]?.blogId;
    if (!blogId) throw new Error('The database has no blogs: seed it with `npm run seed -- --posts N`.');
    const pages = [
      { page: '/', url: `${base}/` },
      { page: '/blog/{id}', url: `${base}/blog/${blogId}` },
    ];
    if (values.reports) mkdirSync(values.reports, { recursive: true });
    for (const { page, url } of pages) {
      const pageRuns: PageRun[] = [];
      for (let i = 0; i < runs; i++) {
        const file = values.reports ? path.join(values.reports, `${page === '/' ? 'home' : 'blog'}-${i + 1}.report.json`) : undefined;
        const run = await audit(url, file);
        console.error(
          `  ${page} run ${i + 1}/${runs}: score ${run.score}, LCP ${Math.round(run.lcp)} ms, TBT ${Math.round(run.tbt)} ms (CPU benchmark index ${run.benchmarkIndex})`,
        );
        pageRuns.push(run);
      }
      results.push({ page, url, runs: pageRuns });
    }
  } finally {
    await stopServer();
    if (tempDir) rmSync(tempDir, { recursive: true, force: true });
  }

  const rows = results.map(({ page, runs: r }) => ({
    page,
    score: median(r.map((x) => x.score)),
    seo: median(r.map((x) => x.seo)),
    lcp: median(r.map((x) => x.lcp)),
    fcp: median(r.map((x) => x.fcp)),
    tbt: median(r.map((x) => x.tbt)),
    cls: median(r.map((x) => x.cls)),
    bytes: median(r.map((x) => x.bytes)),
    scores: r.map((x) => x.score),
  }));
  console.log(`Lighthouse ${runs > 1 ? `(median of ${runs} runs) ` : ''}— performance and SEO, mobile profile, simulated throttling`);
  console.log('');
  console.log('| page | performance | SEO | LCP | FCP | TBT | CLS | transferred |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| \`${r.page}\` | ${r.score} | ${r.seo} | ${(r.lcp / 1000).toFixed(2)} s | ${(r.fcp / 1000).toFixed(2)} s | ${Math.round(r.tbt)} ms | ${r.cls.toFixed(3)} | ${(r.bytes / 1024).toFixed(1)} KB |`,
    );
  }
  console.log('');
  for (const { page, runs: r } of results) {
    const last = r[r.length - 1]!;
    console.log(`${page}: scores ${r.map((x) => x.score).join(', ')}; LCP element: ${last.lcpElement ?? 'unknown'}`);
    for (const o of last.opportunities) {
      const savings = Object.entries(o.metricSavings ?? {})
        .filter(([, v]) => v > 0)
        .map(([k, v]) => `${k} ${k === 'CLS' ? v.toFixed(3) : `${Math.round(v)} ms`}`);
      const notes = [o.displayValue, savings.length ? `saves ${savings.join(', ')}` : ''].filter(Boolean).join('; ');
      console.log(`  - ${o.title} (${o.id})${notes ? `: ${notes}` : ''}`);
    }
  }
  if (values.json) writeFileSync(values.json, `${JSON.stringify({ runs, pages: rows, details: results }, null, 2)}\n`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
