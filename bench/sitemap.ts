/**
 * npm run bench:sitemap: times the sitemap index and the first, a middle and the last file of
 * each section on the seeded database (DATA_DIR, or DATABASE_URL for PostgreSQL), as the server
 * builds them (query and XML, no HTTP). Prints wall-clock and CPU milliseconds: on a busy machine
 * the CPU time is what the same work costs on a free core.
 */
import path from 'node:path';
import { loadConfig } from '../apps/server/src/config';
import { createDatabase } from '../apps/server/src/db/database';
import { SitemapRepository } from '../apps/server/src/pages/sitemap.repo';
import { type SitemapSection, SitemapService } from '../apps/server/src/pages/sitemap.service';

const config = loadConfig(process.env);
const database = createDatabase({ databaseUrl: config.databaseUrl, sqliteFile: path.join(config.dataDir, 'inkwell.sqlite') });
const sitemap = new SitemapService(new SitemapRepository(database.db), config.publicUrl);

async function measure<T>(label: string, work: () => Promise<T>, summarize: (r: T) => string): Promise<T> {
  let result!: T;
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < 3; i++) {
    const cpu = process.cpuUsage();
    const start = performance.now();
    result = await work();
    walls.push(performance.now() - start);
    const used = process.cpuUsage(cpu);
    cpus.push((used.user + used.system) / 1000);
  }
  // Best of three: the first run also warms the page cache.
  console.log(`| ${label} | ${Math.min(...walls).toFixed(0)} | ${Math.min(...cpus).toFixed(0)} | ${summarize(result)} |`);
  return result;
}

async function main() {
  console.log(`\nSitemaps on ${database.engine} (${config.databaseUrl ? 'DATABASE_URL' : config.dataDir})\n`);
  console.log('| document | wall ms | CPU ms (Node) | size |');
  console.log('| --- | --- | --- | --- |');
  const index = await measure(
    'index',
    () => sitemap.index(),
    (xml) => `${(xml.match(/<sitemap>/g) ?? []).length} files`,
  );
  const files = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL((m[1] ?? '').replace(/&amp;/g, '&')));
  for (const section of ['posts', 'profiles', 'tags'] as SitemapSection[]) {
    const ofSection = files.filter((f) => f.pathname === `/sitemaps/${section}.xml`);
    const picked = [...new Set([ofSection[0], ofSection[Math.floor(ofSection.length / 2)], ofSection[ofSection.length - 1]])];
    for (const file of picked) {
      if (!file) continue;
      const after = file.searchParams.get('after') ?? undefined;
      await measure(
        `${section} file ${ofSection.indexOf(file) + 1}/${ofSection.length}`,
        () => sitemap.file(section, after),
        (r) => `${(r.xml.match(/<url>/g) ?? []).length} URLs, ${(r.xml.length / 1e6).toFixed(1)} MB`,
      );
    }
  }
  await database.destroy();
}

void main();
