/** Words of a search box entry: letters and digits only, so nothing reaches the engines' query syntax. */
export function searchTerms(input: string, max = 8): string[] {
  return (input.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, max);
}

/** FTS5 MATCH expression: every word required, the last one as a prefix ("kys" finds "kysely"). */
export function toFts5Query(terms: string[]): string {
  return terms.map((t, i) => (i === terms.length - 1 ? `"${t}"*` : `"${t}"`)).join(' ');
}

/** PostgreSQL to_tsquery expression with the same meaning. */
export function toTsQuery(terms: string[]): string {
  return terms.map((t, i) => (i === terms.length - 1 ? `${t}:*` : t)).join(' & ');
}
