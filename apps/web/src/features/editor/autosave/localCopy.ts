import type { AutosaveFields } from './api';

/** Unsent work kept in this browser (offline, failed or not yet saved), per user and post. */
export interface LocalCopy {
  fields: AutosaveFields;
  /** The version the text started from; null for a post not created yet. */
  version: number | null;
  savedAt: string;
}

const keyOf = (userId: string, blogId: string | undefined) => `inkwell:autosave:${userId}:${blogId ?? 'new'}`;

export function readLocalCopy(userId: string, blogId: string | undefined): LocalCopy | null {
  try {
    const raw = window.localStorage.getItem(keyOf(userId, blogId));
    const copy = raw ? (JSON.parse(raw) as LocalCopy) : null;
    return copy?.fields && Array.isArray(copy.fields.content?.blocks) ? copy : null;
  } catch {
    return null;
  }
}

export function writeLocalCopy(userId: string, blogId: string | undefined, copy: LocalCopy): void {
  try {
    window.localStorage.setItem(keyOf(userId, blogId), JSON.stringify(copy));
  } catch {
    /* storage full or disabled: the server copy is all there is */
  }
}

export function clearLocalCopy(userId: string, blogId: string | undefined): void {
  try {
    window.localStorage.removeItem(keyOf(userId, blogId));
  } catch {
    /* ignore */
  }
}

/**
 * Same text as far as a reader can tell. Block ids are left out: Editor.js gives each block one in
 * this browser and the server's copy has none, so a copy the server already had (sent as the page
 * was left) never matched, and a reload within the autosave's quiet time opened a false "changed in
 * another tab" conflict.
 */
export function sameFields(a: AutosaveFields, b: AutosaveFields): boolean {
  const blocks = (f: AutosaveFields) => f.content.blocks.map(({ id: _id, ...block }: { id?: unknown }) => block);
  // Keys in one order: a block the server stored and the same block saved by its tool may list
  // their data in different orders.
  const words = (f: AutosaveFields) => JSON.stringify([f.title.trim(), f.description.trim(), f.tags, blocks(f)], sortedKeys);
  return words(a) === words(b);
}

function sortedKeys(_key: string, value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));
}
