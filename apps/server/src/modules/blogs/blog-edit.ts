import type { Kysely } from 'kysely';
import { nowIso } from '../../db/ids';
import type { Database } from '../../db/schema';
import type { BlogRow } from './blogs.repo';

/**
 * What a post's create and edit receive, and the edit's rules that need no database: the fields a
 * patch keeps, the publication dates, and the check that the post is still as the edit read it
 * (BlogsService.update).
 */

/** What create and update receive, whether the request was JSON or multipart. */
export interface BlogInput {
  title: string;
  description: string;
  draft: boolean;
  content: unknown;
  tags: unknown;
  /** undefined keeps the current featured image; null removes it. */
  image?: { file: Buffer } | { url: string } | null;
  /** Files for image blocks whose URL is still a local placeholder (blob: or empty), in order. */
  images?: Buffer[];
  /** The post version the writer started from (409 when stale); absent skips the check. */
  version?: number;
  /** Why the post changes, for its revision history; by default 'publish' or 'update'. */
  reason?: 'restore';
  /** Drafts: publish at this time (UTC ISO); null cancels; undefined keeps the current schedule. */
  scheduledAt?: string | null;
  /** The scheduled-posts job: claims the row inside the update's transaction, false if it is no longer due. */
  claim?: (db: Kysely<Database>) => Promise<boolean>;
}

/** The fields an update may leave out. */
type KeptFields = 'title' | 'description' | 'draft' | 'content' | 'tags';
/** An update (PATCH): a field left out (undefined) keeps the post's current value. */
export type BlogPatch = Omit<BlogInput, KeptFields> & Partial<Pick<BlogInput, KeptFields>>;

/** The whole input of an update: what the patch leaves out, from the post as it is. */
export function completed(patch: BlogPatch, current: BlogRow): BlogInput {
  // A scheduled post is stored as a draft until the scheduled-posts job publishes it.
  const draft = patch.scheduledAt ? true : (patch.draft ?? current.draft === 1);
  return {
    ...patch,
    title: patch.title ?? current.title,
    description: patch.description ?? current.description,
    draft,
    content: patch.content ?? JSON.parse(current.content),
    tags: patch.tags ?? current.tags,
  };
}

/**
 * The dates an update sets (0029): a draft's first publication dates the post then (created_at,
 * which lists, feeds and digests order by) and marks it published; a post that went public before
 * published_at existed gets its mark when it is made a draft again, so that coming back is not a
 * first publication.
 */
export function publicationDates(current: BlogRow, draft: 0 | 1): { created_at?: string; published_at?: string } {
  if (current.published_at !== null || current.draft === draft) return {};
  if (draft === 1) return { published_at: current.created_at };
  const now = nowIso();
  return { created_at: now, published_at: now };
}

/** Attempts of an edit whose post changed between its read and its transaction. */
export const EDIT_ATTEMPTS = 3;

/** The post changed between an edit's read and its transaction (BlogsService.update starts over). */
export class ChangedMeanwhile extends Error {}

type LockedState = { version: number; updated_at: string; draft: number; hidden: number };

/** Whether the post is still as the edit read it: every committed edit moves its version and updated_at. */
export function sameState(locked: LockedState | undefined, read: LockedState): boolean {
  return (
    !!locked &&
    Number(locked.version) === Number(read.version) &&
    locked.updated_at === read.updated_at &&
    Number(locked.draft) === Number(read.draft) &&
    Number(locked.hidden) === Number(read.hidden)
  );
}
