import { isUuid } from '../db/ids';
import { badRequest } from './errors';

/** Opaque keyset cursors: base64url JSON of the last row's sort key. */
export function encodeCursor(parts: string[]): string {
  return Buffer.from(JSON.stringify(parts)).toString('base64url');
}

export function decodeCursor(cursor: string | undefined, length: number): string[] | null {
  if (!cursor) return null;
  try {
    const parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(parts) && parts.length === length && parts.every((p) => typeof p === 'string')) return parts as string[];
  } catch {
    // falls through to the 400 below
  }
  throw badRequest('Invalid cursor');
}

/**
 * A cursor for lists ordered by (created_at, id), newest first: the last row's pair, checked to be
 * a date and a UUID so nothing else reaches the database (PostgreSQL's uuid and timestamptz parsers).
 */
export function decodeTimeCursor(cursor: string | undefined): { createdAt: string; id: string } | null {
  const parts = decodeCursor(cursor, 2);
  if (!parts) return null;
  const [createdAt, id] = parts as [string, string];
  if (!isUuid(id) || !ISO_TIME.test(createdAt) || Number.isNaN(Date.parse(createdAt))) throw badRequest('Invalid cursor');
  return { createdAt, id };
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/;
