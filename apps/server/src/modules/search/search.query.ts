import { porterStem } from './porter';

/**
 * How many of a query's newest matches are ranked by relevance; older ones follow, newest first.
 * Ranking costs per candidate (SQLite tokenizes and stems the hit's title, tags and description,
 * PostgreSQL tests three small vectors per term): 200 keeps it well under a millisecond.
 */
export const RANKED_WINDOW = 200;
/**
 * How far back (in posts, newest first) the ranked window reaches: a query whose words are rare
 * together ranks the matches among the newest RANKED_SPAN posts, fewer than RANKED_WINDOW, instead
 * of following the match through most of the table (FTS5 took 7–23 ms at 1M posts for two tag
 * words with a common word; PostgreSQL read GIN over all time). Older matches follow, newest first.
 */
export const RANKED_SPAN = 50_000;
/**
 * PostgreSQL: rows search_recent keeps beyond the span (migration 0026), so deletions among the
 * newest posts leave the whole span in it until the upkeep job tops it up.
 */
export const RECENT_MARGIN = 10_000;

/** Words of a search box entry: letters and digits only, so nothing reaches the engines' query syntax. */
export function searchTerms(input: string, max = 8): string[] {
  // A word keeps its combining marks (Devanagari's vowel signs, a decomposed accent), as both
  // engines' indexes keep them in it. Turkish İ is I: lower-cased it would be i and a mark.
  return (lowerCased(input).match(/[\p{L}\p{N}\p{M}]+/gu) ?? []).slice(0, max);
}

/** Lower case in the composed form the indexes hold, with Turkish İ as I (no dot left over). */
function lowerCased(text: string): string {
  return text
    .replace(/\u0130/g, 'I')
    .normalize('NFC')
    .toLowerCase();
}

/**
 * SQLite: the columns of a `blogs` row as its full-text row indexes them (title, description,
 * tags space-separated, body). The index keeps no copy of the text (migration 0025): whatever
 * needs the indexed text reads it here.
 */
export const FTS_TEXT_OF_BLOG = `blogs.title, blogs.description, (SELECT group_concat(value, ' ') FROM json_each(blogs.tags)) AS tags, blogs.search_text AS body`;

/** PostgreSQL to_tsquery expression with the same meaning. */
export function toTsQuery(terms: string[]): string {
  return terms.map((t, i) => (i === terms.length - 1 ? `${t}:*` : t)).join(' & ');
}

/**
 * A word as SQLite's index and the search vocabulary keep it: lower case, accents removed from
 * Latin letters only, as FTS5's remove_diacritics does. Other scripts keep their marks, and
 * Hangul syllables and kana stay composed (taking every mark off a decomposed word had made
 * Korean, accented Greek and voiced kana unfindable even typed exactly as written).
 */
export function foldWord(word: string): string {
  return lowerCased(word)
    .normalize('NFD')
    .replace(/(\p{Script=Latin})\p{M}+/gu, '$1')
    .normalize('NFC');
}

/** The distinct words of a text, for the prefix vocabulary (SQLite). */
export function vocabularyOf(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of text.match(/[\p{L}\p{N}]+/gu) ?? []) out.add(foldWord(w));
  return out;
}

/**
 * FTS5 expression for one word, or for any of several (a prefix expanded to whole words). A word
 * is a quoted string; `parts` gives, for a word SQLite's tokenizer splits, the parts to AND
 * (the index has no positions for a phrase: migration 0025).
 */
export function fts5Any(words: string[], parts?: Map<string, string[]>): string {
  const one = (w: string) => {
    const split = parts?.get(w);
    return split && split.length > 1 ? `(${split.map((p) => `"${p}"`).join(' AND ')})` : `"${w}"`;
  };
  return words.length === 1 ? one(words[0]!) : `(${words.map(one).join(' OR ')})`;
}

/**
 * A text's FTS5 terms (folded as unicode61 folds, stemmed as porter stems), space-separated and
 * space-wrapped, so `includes(' term ')` tells whether the text holds the term (SQLite's
 * search_heads).
 */
export function stemsOf(text: string): string {
  const terms = new Set<string>();
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range
  const words = /^[\x00-\x7f]*$/.test(text) ? text.toLowerCase().split(/[^a-z0-9]+/) : (text.match(/[\p{L}\p{N}]+/gu) ?? []).map(foldWord);
  for (const w of words) if (w) terms.add(porterStem(w));
  return terms.size ? ` ${[...terms].join(' ')} ` : '';
}
