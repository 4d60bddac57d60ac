import type { Blog, BlogContent, PendingAutosaveResponse } from '@inkwell/core';
import type { AutosaveFields } from './api';
import { readLocalCopy, sameFields } from './localCopy';

/** What the editor opens with: the post, its pending autosave, or this browser's unsent copy. */
export interface EditorStart {
  title: string;
  description: string;
  tags: string[];
  content: BlogContent | null;
  /** undefined: the post's own featured image. */
  image?: string | null;
  version: number | null;
  restoredFrom: 'server' | 'device' | null;
  /** The text has changes the server has not seen yet. */
  unsent: boolean;
}

/**
 * The newest text wins: this browser's unsent copy (unless the server already has the same
 * words, e.g. sent on leaving), else the pending autosave, else the post. An unsent copy keeps
 * the version it started from, so if the post moved on meanwhile its first save conflicts (409)
 * and the author chooses, rather than one text silently replacing the other.
 */
export function editorStart(userId: string, blog?: Blog, pending?: PendingAutosaveResponse | null): EditorStart {
  const base: AutosaveFields = pending?.autosave ?? {
    title: blog?.title ?? '',
    description: blog?.description ?? '',
    tags: blog?.tags ?? [],
    content: blog?.content ?? { blocks: [] },
  };
  const version = blog ? (pending?.version ?? null) : null;
  const local = readLocalCopy(userId, blog?.blogId);
  if (local && !(blog && version !== null && local.version !== version && sameFields(local.fields, base))) {
    return { ...local.fields, version: blog ? local.version : null, restoredFrom: 'device', unsent: true };
  }
  if (pending?.autosave) return { ...pending.autosave, version, restoredFrom: 'server', unsent: false };
  return { ...base, content: blog?.content ?? null, version, restoredFrom: null, unsent: false };
}
