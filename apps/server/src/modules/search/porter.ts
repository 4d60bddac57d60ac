/**
 * The stemmer of SQLite FTS5's `porter` tokenizer (fts5_tokenize.c, fts5PorterCb), step for step,
 * so that JavaScript can tell which column of a hit holds a query word exactly as a column filter
 * (`{title} : "word"`) would. FTS5 stems the folded token's UTF-8 bytes: tokens shorter than 3 or
 * longer than 64 bytes pass through, and any byte that is not a, e, i, o, u (or y after a
 * consonant) counts as a consonant. Words here are already folded (foldWord).
 */
const MAX_TOKEN = 64;

const A = 97;
const E = 101;
const I = 105;
const O = 111;
const U = 117;
const Y = 121;

function isVowel(c: number, yIsVowel: boolean): boolean {
  return c === A || c === E || c === I || c === O || c === U || (yIsVowel && c === Y);
}

/** Index just past the first vowel-consonant sequence of b[from, from + n), or 0. */
function gobbleVC(b: number[], from: number, n: number, prevCons: boolean): number {
  let cons = prevCons;
  let i = 0;
  for (; i < n; i++) {
    cons = !isVowel(b[from + i]!, cons);
    if (!cons) break;
  }
  for (i++; i < n; i++) {
    cons = !isVowel(b[from + i]!, cons);
    if (cons) return i + 1;
  }
  return 0;
}

const mGt0 = (b: number[], n: number) => gobbleVC(b, 0, n, false) !== 0;
function mGt1(b: number[], n: number): boolean {
  const k = gobbleVC(b, 0, n, false);
  return k !== 0 && gobbleVC(b, k, n - k, true) !== 0;
}
function mEq1(b: number[], n: number): boolean {
  const k = gobbleVC(b, 0, n, false);
  return k !== 0 && gobbleVC(b, k, n - k, true) === 0;
}
function oStar(b: number[], n: number): boolean {
  const last = b[n - 1];
  if (last === 119 || last === 120 || last === Y) return false; // w x y
  let mask = 0;
  let cons = false;
  for (let i = 0; i < n; i++) {
    cons = !isVowel(b[i]!, cons);
    mask = ((mask << 1) + (cons ? 1 : 0)) & 0xffff;
  }
  return (mask & 7) === 5;
}
function hasVowel(b: number[], n: number): boolean {
  for (let i = 0; i < n; i++) if (isVowel(b[i]!, i > 0)) return true;
  return false;
}
const mGt1SorT = (b: number[], n: number) => (b[n - 1] === 115 || b[n - 1] === 116) && mGt1(b, n);

function endsWith(b: number[], n: number, suffix: string): boolean {
  if (n <= suffix.length) return false; // FTS5's generated steps test nBuf > length
  for (let i = 0; i < suffix.length; i++) if (b[n - suffix.length + i] !== suffix.charCodeAt(i)) return false;
  return true;
}

type Cond = (b: number[], n: number) => boolean;
/** [suffix, replacement, condition on the stem]; the first rule whose suffix matches decides (as FTS5's switch). */
type Rule = [string, string, Cond];

/** Applies the first rule whose suffix matches (its condition may still refuse); returns the new length. */
function applyRules(b: number[], n: number, rules: Rule[]): number {
  for (const [suffix, out, cond] of rules) {
    if (!endsWith(b, n, suffix)) continue;
    const stem = n - suffix.length;
    if (!cond(b, stem)) return n;
    for (let i = 0; i < out.length; i++) b[stem + i] = out.charCodeAt(i);
    return stem + out.length;
  }
  return n;
}

/** Rules grouped by the second-to-last letter, in FTS5's order (it switches on aBuf[nBuf-2]). */
function byPenultimate(rules: Rule[]): Map<number, Rule[]> {
  const m = new Map<number, Rule[]>();
  for (const r of rules) {
    const key = r[0].charCodeAt(r[0].length - 2);
    m.set(key, [...(m.get(key) ?? []), r]);
  }
  return m;
}

const STEP2 = byPenultimate([
  ['ational', 'ate', mGt0],
  ['tional', 'tion', mGt0],
  ['enci', 'ence', mGt0],
  ['anci', 'ance', mGt0],
  ['izer', 'ize', mGt0],
  ['logi', 'log', mGt0],
  ['bli', 'ble', mGt0],
  ['alli', 'al', mGt0],
  ['entli', 'ent', mGt0],
  ['eli', 'e', mGt0],
  ['ousli', 'ous', mGt0],
  ['ization', 'ize', mGt0],
  ['ation', 'ate', mGt0],
  ['ator', 'ate', mGt0],
  ['alism', 'al', mGt0],
  ['iveness', 'ive', mGt0],
  ['fulness', 'ful', mGt0],
  ['ousness', 'ous', mGt0],
  ['aliti', 'al', mGt0],
  ['iviti', 'ive', mGt0],
  ['biliti', 'ble', mGt0],
]);
const STEP3 = byPenultimate([
  ['ical', 'ic', mGt0],
  ['ness', '', mGt0],
  ['icate', 'ic', mGt0],
  ['iciti', 'ic', mGt0],
  ['ful', '', mGt0],
  ['ative', '', mGt0],
  ['alize', 'al', mGt0],
]);
const STEP4 = byPenultimate([
  ['al', '', mGt1],
  ['ance', '', mGt1],
  ['ence', '', mGt1],
  ['er', '', mGt1],
  ['ic', '', mGt1],
  ['able', '', mGt1],
  ['ible', '', mGt1],
  ['ant', '', mGt1],
  ['ement', '', mGt1],
  ['ment', '', mGt1],
  ['ent', '', mGt1],
  ['ion', '', mGt1SorT],
  ['ou', '', mGt1],
  ['ism', '', mGt1],
  ['ate', '', mGt1],
  ['iti', '', mGt1],
  ['ous', '', mGt1],
  ['ive', '', mGt1],
  ['ize', '', mGt1],
]);

const step = (b: number[], n: number, rules: Map<number, Rule[]>) => applyRules(b, n, rules.get(b[n - 2]!) ?? []);

/** Step 1B: eed → ee (m > 0); ed, ing removed when the stem has a vowel (then returns true for 1B2). */
function step1B(b: number[], n: number): [number, boolean] {
  if (b[n - 2] === E) {
    if (endsWith(b, n, 'eed')) {
      if (mGt0(b, n - 3)) return [n - 1, false];
      return [n, false];
    }
    if (endsWith(b, n, 'ed')) return hasVowel(b, n - 2) ? [n - 2, true] : [n, false];
  } else if (b[n - 2] === 110 && endsWith(b, n, 'ing')) {
    return hasVowel(b, n - 3) ? [n - 3, true] : [n, false];
  }
  return [n, false];
}

const STEP1B2: [string, string][] = [
  ['at', 'ate'],
  ['bl', 'ble'],
  ['iz', 'ize'],
];

function stemBytes(b: number[]): number[] {
  let n = b.length;
  // Step 1A.
  if (b[n - 1] === 115) {
    if (b[n - 2] === E) {
      if ((n > 4 && b[n - 4] === 115 && b[n - 3] === 115) || (n > 3 && b[n - 3] === I)) n -= 2;
      else n -= 1;
    } else if (b[n - 2] !== 115) n -= 1;
  }
  // Step 1B.
  const [afterB, more] = step1B(b, n);
  n = afterB;
  if (more) {
    const rule = STEP1B2.find(([suffix]) => endsWith(b, n, suffix));
    if (rule) {
      const stem = n - 2;
      for (let i = 0; i < 3; i++) b[stem + i] = rule[1].charCodeAt(i);
      n = stem + 3;
    } else {
      const c = b[n - 1]!;
      if (!isVowel(c, false) && c !== 108 && c !== 115 && c !== 122 && c === b[n - 2]) n--;
      else if (mEq1(b, n) && oStar(b, n)) b[n++] = E;
    }
  }
  // Step 1C.
  if (b[n - 1] === Y && hasVowel(b, n - 1)) b[n - 1] = I;
  // Steps 2 to 4.
  n = step(b, n, STEP2);
  n = step(b, n, STEP3);
  n = step(b, n, STEP4);
  // Step 5a.
  if (b[n - 1] === E && (mGt1(b, n - 1) || (mEq1(b, n - 1) && !oStar(b, n - 1)))) n--;
  // Step 5b.
  if (n > 1 && b[n - 1] === 108 && b[n - 2] === 108 && mGt1(b, n - 1)) n--;
  return b.slice(0, n);
}

const stems = new Map<string, string>();
const STEM_CACHE = 50_000;

/** The term FTS5's porter tokenizer indexes for a folded word. */
export function porterStem(word: string): string {
  const cached = stems.get(word);
  if (cached !== undefined) return cached;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII test
  const ascii = /^[\x00-\x7f]*$/.test(word);
  const bytes = ascii ? Array.from(word, (c) => c.charCodeAt(0)) : [...Buffer.from(word, 'utf8')];
  let out = word;
  if (bytes.length >= 3 && bytes.length <= MAX_TOKEN) {
    const stemmed = stemBytes(bytes);
    out = ascii ? String.fromCharCode(...stemmed) : Buffer.from(stemmed).toString('utf8');
  }
  if (stems.size >= STEM_CACHE) stems.clear();
  stems.set(word, out);
  return out;
}
