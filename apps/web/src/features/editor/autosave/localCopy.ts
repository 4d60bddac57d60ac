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

/** Same text as far as a reader can tell (the server cleans content, so compare its words). */
export function sameFields(a: AutosaveFields, b: AutosaveFields): boolean {
  const words = (f: AutosaveFields) => JSON.stringify([f.title.trim(), f.description.trim(), f.tags, f.content.blocks]);
  return words(a) === words(b);
}
