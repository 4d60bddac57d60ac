import { type Compilable, type CompiledQuery, type Kysely, type QueryResult, type RawBuilder, type SqlBool, sql } from 'kysely';
import { isPostgres } from './dialect';
import type { Database } from './schema';

const SLOT = '\u0000prepared-slot:';

/**
 * PostgreSQL: the SQL text of each `prepared` query given a name, with that name. Such a query is
 * a named statement on each connection (db/database.ts): parsed once per connection and, after
 * five runs, planned once if a generic plan costs no more than planning each run. Only for a query
 * whose best plan does not depend on its arguments (a read by primary key), measured first: a
 * generic plan cannot see a search's words (docs/performance.md, named statements for search).
 */
const statementNames = new Map<string, string>();

/** The name a query's SQL text runs under on PostgreSQL, if it was given one. */
export const statementNameOf = (text: string): string | undefined => statementNames.get(text);

function nameStatement(text: string, name: string): void {
  for (const [other, taken] of statementNames)
    if (taken === name && other !== text) throw new Error(`statement name ${name} is already taken by ${other}`);
  statementNames.set(text, name);
}

interface Template {
  query: CompiledQuery;
  /** For each parameter of the compiled query: the argument it comes from, or null for a constant. */
  slots: (number | null)[];
}

/**
 * A query built and compiled once per engine; each call only puts its arguments in. Kysely
 * builds and compiles every query anew, which on the hottest paths (auth, likes, comments)
 * took about as long as SQLite took to run them. The build function must make the same SQL
 * whatever its arguments: they may only be used as values, never to choose tables or clauses.
 */
export function prepared<A extends unknown[], R>(
  build: (db: Kysely<Database>, ...args: A) => Compilable<R>,
  options: { statementName?: string } = {},
) {
  const templates = new Map<'postgres' | 'sqlite', Template>();
  return async (db: Kysely<Database>, ...args: A): Promise<QueryResult<R>> => {
    const engine = isPostgres(db) ? 'postgres' : 'sqlite';
    let template = templates.get(engine);
    if (!template) {
      const query = build(db, ...(args.map((_, i) => `${SLOT}${i}`) as A)).compile();
      const slots = query.parameters.map((p) => (typeof p === 'string' && p.startsWith(SLOT) ? Number(p.slice(SLOT.length)) : null));
      if (query.sql.includes(SLOT) || new Set(slots.filter((s) => s !== null)).size < args.length)
        throw new Error(`prepared query does not use all its arguments: ${query.sql}`);
      template = { query, slots };
      templates.set(engine, template);
      if (engine === 'postgres' && options.statementName) nameStatement(query.sql, options.statementName);
    }
    const { query, slots } = template;
    const parameters = slots.map((slot, i) => (slot === null ? query.parameters[i] : args[slot]));
    return db.executeQuery<R>({ ...query, parameters } as CompiledQuery<R>);
  };
}

/**
 * SQLite only: `from "table"` read through the named index (`INDEXED BY`), for a covering index
 * that SQLite's planner passes over without statistics (a fresh site has none) in favour of a
 * unique index that must then read the row. Fails at the first compile if the query has no such
 * table, and when the index is gone every use fails loudly instead of silently scanning.
 */
export function readThroughIndex<R>(query: Compilable<R>, table: string, index: string): Compilable<R> {
  return {
    compile() {
      const compiled = query.compile();
      const from = `from "${table}"`;
      if (compiled.sql.split(from).length !== 2) throw new Error(`readThroughIndex: no single ${from} in ${compiled.sql}`);
      return { ...compiled, sql: compiled.sql.replace(from, `${from} indexed by "${index}"`) };
    },
  };
}

/**
 * `column` is one of `ids`, passed as one parameter (an array on PostgreSQL, a JSON array on
 * SQLite: `idList`), so a query over a varying number of ids is compiled once by `prepared`.
 *
 * On PostgreSQL the array is read through a one-row subquery, which hides its length from the
 * planner. A named statement's plans for one id and for its generic plan then cost the same, and
 * PostgreSQL keeps the generic plan. Seeing the length, it priced the generic plan of a thread's
 * replies (which assumes 10 ids) at 2.4 times a one-id plan and planned every execution anew:
 * 0.37 ms of its CPU for a 0.08 ms read (docs/decisions.md, "A named statement…"). The index is
 * used either way (`parent_id = ANY ($1)`).
 */
export function oneOf(db: Kysely<Database>, column: string, ids: unknown): RawBuilder<SqlBool> {
  return isPostgres(db)
    ? sql<SqlBool>`${sql.ref(column)} = ANY((SELECT ${ids}::uuid[])::uuid[])`
    : sql<SqlBool>`${sql.ref(column)} IN (SELECT value FROM json_each(${ids}))`;
}

/** The parameter `oneOf` takes for `ids` on this engine. */
export const idList = (db: Kysely<Database>, ids: string[]): unknown => (isPostgres(db) ? ids : JSON.stringify(ids));
