import type { AutosaveResponse, BlogContent, PendingAutosaveResponse, Revision, RevisionSummary } from '@inkwell/core';
import { API_BASE, ApiError, apiRequest } from '../../../lib/api';
import { sessionToken } from '../../../lib/session';

/** What autosave keeps of the editor: everything but a featured image file not uploaded yet. */
export interface AutosaveFields {
  title: string;
  description: string;
  tags: string[];
  content: BlogContent;
  /** A featured image URL, null for none; undefined keeps the post's current one. */
  image?: string | null;
}

const path = (blogId: string, rest = '') => `/blogs/${encodeURIComponent(blogId)}${rest}`;

/** POST /blogs/autosave: a new post becomes a draft. */
export function autosaveNew(fields: AutosaveFields): Promise<AutosaveResponse> {
  return apiRequest<AutosaveResponse>('/blogs/autosave', { method: 'POST', body: fields });
}

/** PUT /blogs/{id}/autosave: pending text of an existing post; 409 when `version` is stale (force overwrites). */
export function autosavePost(blogId: string, fields: AutosaveFields, version: number | null, force = false): Promise<AutosaveResponse> {
  return apiRequest<AutosaveResponse>(path(blogId, '/autosave'), {
    method: 'PUT',
    body: { ...fields, ...(version !== null ? { version } : {}), ...(force ? { force } : {}) },
  });
}

/** The author's pending text and the version to save against; null when the viewer is not the author. */
export async function fetchPending(blogId: string, signal?: AbortSignal): Promise<PendingAutosaveResponse | null> {
  try {
    return await apiRequest<PendingAutosaveResponse>(path(blogId, '/autosave'), { signal });
  } catch (error) {
    if (error instanceof ApiError && (error.status === 403 || error.status === 404)) return null;
    throw error;
  }
}

export function discardPending(blogId: string): Promise<unknown> {
  return apiRequest(path(blogId, '/autosave'), { method: 'DELETE' });
}

/**
 * The last chance when the page goes away: a keepalive fetch outlives the page (sendBeacon
 * cannot carry the Authorization header). Bodies over the browser's 64 KB keepalive budget
 * fail; the copy in localStorage covers them.
 */
export function sendOnLeave(blogId: string, fields: AutosaveFields, version: number): void {
  const token = sessionToken();
  if (!token) return;
  try {
    void fetch(`${API_BASE}${path(blogId, '/autosave')}`, {
      method: 'PUT',
      keepalive: true,
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ ...fields, version }),
    }).catch(() => undefined);
  } catch {
    /* too large for keepalive: the local copy is sent next time */
  }
}

export async function listRevisions(blogId: string): Promise<{ version: number; revisions: RevisionSummary[] }> {
  return apiRequest<{ version: number; revisions: RevisionSummary[] }>(path(blogId, '/revisions'));
}

export async function fetchRevision(blogId: string, revisionId: string): Promise<Revision> {
  return (await apiRequest<{ revision: Revision }>(path(blogId, `/revisions/${encodeURIComponent(revisionId)}`))).revision;
}

export function restoreRevision(blogId: string, revisionId: string, version: number | null): Promise<{ message: string; version: number }> {
  return apiRequest(path(blogId, `/revisions/${encodeURIComponent(revisionId)}/restore`), {
    method: 'POST',
    body: version !== null ? { version } : {},
  });
}
