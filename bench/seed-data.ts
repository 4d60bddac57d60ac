/**
 * Deterministic fake content for the seeder: a seeded PRNG, Zipf-like popularity, and text.
 */
export function rng(seed = 42) {
  let s = seed >>> 0;
  return () => {
    // mulberry32
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Picks 0..n-1 with probability ~ 1/(rank+1)^s (few very popular items, a long tail). */
export function zipf(n: number, random: () => number, s = 1.07) {
  // Inverse CDF of the continuous approximation: fast, no table of n entries.
  const a = 1 - s;
  const max = ((n + 1) ** a - 1) / a;
  return () => {
    const u = random() * max;
    const x = (u * a + 1) ** (1 / a) - 1;
    return Math.min(n - 1, Math.floor(x));
  };
}

const WORDS = (
  'api async await backend benchmark browser buffer cache cluster compiler component concurrency container css database debug ' +
  'deploy docker edge event framework frontend function garbage graph hook http index inference integration javascript json ' +
  'kernel kubernetes lambda latency library linux lock memory migration module monitoring mutex network node observability ' +
  'optimizer parser performance pipeline pointer postgres promise protocol python query queue react redis refactor regex ' +
  'render replication request runtime rust schema scheduler search security server shard socket sql stack stream ' +
  'syntax testing thread throughput token transaction typescript vector virtual vite wasm webassembly webhook worker'
).split(' ');

export const TAGS = [
  'react',
  'nodejs',
  'mern',
  'express',
  'javascript',
  'algorithms',
  'frontend',
  'backend',
  'fullstack',
  'database',
  'typescript',
  'rust',
  'go',
  'python',
  'devops',
  'kubernetes',
  'docker',
  'postgres',
  'sqlite',
  'redis',
  'security',
  'testing',
  'performance',
  'css',
  'html',
  'webdev',
  'career',
  'opensource',
  'linux',
  'cloud',
  'aws',
  'ai',
  'ml',
  'graphql',
  'rest',
  'api',
  'architecture',
  'design',
  'tutorial',
  'beginners',
  'productivity',
  'git',
  'vim',
  'wasm',
];

/** Every word the generators below can write: the search vocabulary of a seeded site. */
export const VOCABULARY = [...WORDS, ...TAGS, 'const', 'await'].join(' ');

/** The seeded vocabulary's distinct words, each once (what the search benches draw from). */
const SEARCH_WORDS = [...new Set(VOCABULARY.split(' '))];

/**
 * A random search of `fewest` to `most` words of the seeded vocabulary: the search benches' query
 * (the same seed gives the same queries in each of them).
 */
export function searchTerms(random: () => number, fewest: number, most = fewest): string[] {
  return Array.from(
    { length: fewest + Math.floor(random() * (most - fewest + 1)) },
    () => SEARCH_WORDS[Math.floor(random() * SEARCH_WORDS.length)]!,
  );
}

export function words(random: () => number, count: number): string {
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(WORDS[Math.floor(random() * WORDS.length)]!);
  return out.join(' ');
}

export function title(random: () => number): string {
  const t = words(random, 3 + Math.floor(random() * 5));
  return t[0]!.toUpperCase() + t.slice(1);
}

/** Editor.js content of 4-12 blocks, and its plain text. */
export function content(random: () => number): { json: string; text: string; blocks: number } {
  const blocks: unknown[] = [];
  const texts: string[] = [];
  const n = 4 + Math.floor(random() * 9);
  for (let i = 0; i < n; i++) {
    const r = random();
    if (r < 0.15) {
      const text = title(random);
      blocks.push({ type: 'header', data: { text, level: 2 + Math.floor(random() * 3) } });
      texts.push(text);
    } else if (r < 0.25) {
      const items = [words(random, 5), words(random, 6), words(random, 4)];
      blocks.push({ type: 'list', data: { style: 'unordered', items: items.map((c) => ({ content: c, items: [] })) } });
      texts.push(items.join(' '));
    } else if (r < 0.32) {
      const code = `const ${words(random, 1)} = await ${words(random, 1)}(${words(random, 1)});`;
      blocks.push({ type: 'code', data: { code, language: 'typescript' } });
      texts.push(code);
    } else {
      const text = `${words(random, 25 + Math.floor(random() * 40))}.`;
      blocks.push({ type: 'paragraph', data: { text } });
      texts.push(text);
    }
  }
  return { json: JSON.stringify({ time: Date.now(), blocks }), text: texts.join('\n'), blocks: n };
}

/** UUIDv7-shaped ids from a timestamp and a counter: sortable like the app's own, cheap to make. */
export function seedId(ms: number, n: number): string {
  const hex =
    ms.toString(16).padStart(12, '0') +
    '7' +
    (n % 0x1000).toString(16).padStart(3, '0') +
    '8' +
    Math.floor(n / 0x1000)
      .toString(16)
      .padStart(15, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export class Progress {
  private readonly started = Date.now();
  private last = 0;
  constructor(
    private readonly label: string,
    private readonly total: number,
  ) {}

  tick(done: number) {
    const now = Date.now();
    if (now - this.last < 250 && done < this.total) return;
    this.last = now;
    const frac = this.total ? done / this.total : 1;
    const elapsed = (now - this.started) / 1000;
    const eta = frac > 0 ? elapsed / frac - elapsed : 0;
    const bar = '#'.repeat(Math.round(frac * 30)).padEnd(30, '.');
    process.stdout.write(
      `\r${this.label.padEnd(10)} [${bar}] ${String(Math.round(frac * 100)).padStart(3)}% ${done}/${this.total}  ${elapsed.toFixed(0)}s elapsed, ~${eta.toFixed(0)}s left   `,
    );
    if (done >= this.total) process.stdout.write('\n');
  }
}
