import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { VOCABULARY } from '../../../../../bench/seed-data';
import { porterStem } from './porter';
import { foldWord } from './search.query';

/** English words through every step of the Porter algorithm, plus edge cases of FTS5's byte-wise version. */
const WORDS = `caresses ponies ties caress cats feed agreed plastered bled motoring sing conflated troubled sized
hopping tanned falling hissing fizzed failing filing happy sky relational conditional rational valenci hesitanci
digitizer conformabli radicalli differentli vileli analogousli vietnamization predication operator feudalism
decisiveness hopefulness callousness formaliti sensitiviti sensibiliti triplicate formative formalize electriciti
electrical hopeful goodness revival allowance inference airliner gyroscopic adjustable defensible irritant
replacement adjustment dependent adoption homologou communism activate angulariti homologous effective bowdlerize
probate rate cease controll roll generalizations oscillators abilities sized yes is as us ass bus bias ies ied
eed ing ed sly dying lying tying flying played playing programming programmer databases queries indexing indexed
running runs ran quokka quokkas wombats koalas koala marsupials notes noted noting caching cached caches kubernetes
tutorials beginners productivity opensource graphql webassembly régime naïve café über straße ağaç ñandú x9ing 3ds
a an the of ab abc abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzing`;

/** What SQLite's own tokenizer indexes for each word (the terms of an FTS5 table, read back through fts5vocab). */
function sqliteStems(words: string[]): Map<string, string> {
  const db = new Database(':memory:');
  db.exec(`CREATE VIRTUAL TABLE t USING fts5(w, tokenize = 'porter unicode61 remove_diacritics 2');
    CREATE VIRTUAL TABLE v USING fts5vocab(t, 'row');`);
  const insert = db.prepare('INSERT INTO t (rowid, w) VALUES (?, ?)');
  const terms = db.prepare('SELECT term FROM v');
  const out = new Map<string, string>();
  for (const w of words) {
    db.exec('DELETE FROM t');
    insert.run(1, w);
    const rows = terms.all() as { term: string }[];
    expect(rows.length, w).toBe(1);
    out.set(w, rows[0]!.term);
  }
  db.close();
  return out;
}

/** Random stems with the algorithm's suffixes glued on (one or two), deterministic. */
function generated(count: number): string[] {
  const suffixes = `ational tional enci anci izer logi bli alli entli eli ousli ization ation ator alism iveness fulness ousness
    aliti iviti biliti ical ness icate iciti ful ative alize al ance ence er ic able ible ant ement ment ent ion sion tion ou ism
    ate iti ous ive ize s es ies sses ss ed eed ing y e ll at bl iz`.split(/\s+/);
  const letters = 'abcdefghijklmnopqrstuvwxyzaeiouaeiouyyé';
  let seed = 7;
  const random = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  const pick = <T>(list: ArrayLike<T>) => list[Math.floor(random() * list.length)]!;
  return Array.from({ length: count }, () => {
    let w = '';
    for (let n = 1 + Math.floor(random() * 8); n > 0; n--) w += pick(letters);
    if (random() < 0.8) w += pick(suffixes);
    if (random() < 0.3) w += pick(suffixes);
    return w;
  });
}

describe('porterStem', () => {
  it('gives the term FTS5 porter indexes, for every word tried', () => {
    const words = [...new Set([...WORDS.split(/\s+/), ...VOCABULARY.split(' '), ...generated(20_000)].filter(Boolean))];
    const expected = sqliteStems(words);
    const wrong = words
      .filter((w) => porterStem(foldWord(w)) !== expected.get(w))
      .map((w) => `${w}: ${porterStem(foldWord(w))} != ${expected.get(w)}`);
    expect(wrong).toEqual([]);
  });
});
