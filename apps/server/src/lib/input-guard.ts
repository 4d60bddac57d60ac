import { MAX_JSON_DEPTH, NUL_MESSAGE, TOO_DEEP_MESSAGE, UNPAIRED_SURROGATE_MESSAGE } from '@inkwell/core';
import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors';

/** String.prototype.isWellFormed (ES2024, in Node 20): false when a surrogate has no partner. */
const wellFormed = (s: string): boolean => (s as string & { isWellFormed(): boolean }).isWellFormed();

/**
 * A string's problem: a NUL character (PostgreSQL text cannot hold one, and no text of ours needs
 * it), or an unpaired surrogate (`"\ud800"` in JSON: not a character; SQLite stored it as invalid
 * UTF-8 that strict JSON readers then refused in every list holding it, PostgreSQL as U+FFFD).
 */
function stringProblem(s: string): string | null {
  if (s.includes('\u0000')) return NUL_MESSAGE;
  return wellFormed(s) ? null : UNPAIRED_SURROGATE_MESSAGE;
}

/**
 * The problem of a parsed request part, or null: a string or key `stringProblem` refuses, or
 * nesting deeper than any payload needs (recursive code further on would overflow the stack).
 * Iterative, so hostile depth costs nothing.
 */
export function inputProblem(value: unknown): string | null {
  if (typeof value === 'string') return stringProblem(value);
  if (typeof value !== 'object' || value === null) return null;
  const nodes: object[] = [value];
  const depths: number[] = [1];
  while (nodes.length) {
    const node = nodes.pop()!;
    const depth = depths.pop()!;
    if (depth > MAX_JSON_DEPTH) return TOO_DEEP_MESSAGE;
    // Plain loops: this runs over every value of every body, so it must stay cheap.
    const isArray = Array.isArray(node);
    const keys = isArray ? null : Object.keys(node);
    const length = isArray ? node.length : keys!.length;
    for (let i = 0; i < length; i++) {
      let child: unknown;
      if (isArray) child = node[i];
      else {
        const key = keys![i]!;
        const keyProblem = stringProblem(key);
        if (keyProblem) return keyProblem;
        child = (node as Record<string, unknown>)[key];
      }
      if (typeof child === 'string') {
        const problem = stringProblem(child);
        if (problem) return problem;
      } else if (typeof child === 'object' && child !== null) {
        nodes.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return null;
}

/**
 * One check of every request's params, query and JSON body before validation, so no route can
 * pass a NUL byte to the database or a hostile nesting to its code. Multipart fields are read by
 * the handlers and checked in readMultipart.
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const problem = inputProblem(request.params) ?? inputProblem(request.query) ?? inputProblem(request.body);
    if (problem) throw badRequest(problem);
  });
}
