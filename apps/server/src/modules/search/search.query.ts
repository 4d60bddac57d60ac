import { porterStem } from './porter';

/** Words of a search box entry: letters and digits only, so nothing reaches the engines' query syntax. */
export function searchTerms(input: string, max = 8): string[] {
  return (input.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, max);
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

/** A word as the search vocabulary keeps it: lower case, accents removed (as FTS5's remove_diacritics). */
export function foldWord(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
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
