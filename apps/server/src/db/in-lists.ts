/** Bound parameters per IN list, well under SQLite's and PostgreSQL's limits (PostgreSQL takes 65,535 a statement). */
const IN_LIST_SIZE = 500;

/** The distinct values of `list` in IN lists of at most 500, in their first order (sorted stays sorted). */
export function inLists<T>(list: readonly T[]): T[][] {
  const unique = [...new Set(list)];
  return Array.from({ length: Math.ceil(unique.length / IN_LIST_SIZE) }, (_, i) => unique.slice(i * IN_LIST_SIZE, (i + 1) * IN_LIST_SIZE));
}
