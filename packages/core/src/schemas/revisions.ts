import { z } from 'zod';
import { MAX_DESCRIPTION_LENGTH, MAX_TITLE_LENGTH } from '../messages';
import type { BlogContent } from './blocks';

/** Messages of autosave and revision history (issue 16). */
export const REVISION_MESSAGES = {
  conflict:
    'This post was changed in another tab or window since you opened it. Reload to see the latest version, or overwrite it with yours.',
  notFound: 'Revision not found',
  restored: 'Revision restored',
  discarded: 'Unsaved changes discarded',
  saved: 'Saved',
} as const;

/** How many previous versions a post keeps. */
export const MAX_REVISIONS_PER_POST = 50;

/** A post's version: every committed save (autosave included) raises it by one. */
export const postVersion = z.coerce.number().int().min(0).max(2_000_000_000);

const VERSION_MESSAGE = 'version: must be a whole number';

/** The optional `version` of a POST/PATCH /blogs form (autosave conflicts); absent, null or '' means "no check". */
export const formVersion = z.preprocess(
  (v) => (v === '' || v === null ? undefined : v),
  z.coerce.number({ error: VERSION_MESSAGE }).int(VERSION_MESSAGE).min(0, VERSION_MESSAGE).max(2_000_000_000, VERSION_MESSAGE).optional(),
);

/**
 * Work in progress sent by the editor. The title may still be empty on an existing post (a new
 * post needs one to become a draft); publishing rules are checked only on Publish/Update Blog.
 */
const autosaveFields = {
  title: z.string().max(MAX_TITLE_LENGTH, `Title must be at most ${MAX_TITLE_LENGTH} characters`).default(''),
  description: z.string().max(MAX_DESCRIPTION_LENGTH, `Description must be at most ${MAX_DESCRIPTION_LENGTH} characters`).default(''),
  tags: z.unknown().optional(),
  content: z.unknown().optional(),
  /** A featured image URL, null for none; absent keeps the post's current one. */
  image: z.string().max(2048).nullable().optional(),
};

/** POST /blogs/autosave: the first save of a new post creates it (no version yet). */
export const autosaveNewRequest = z.object(autosaveFields);
export type AutosaveNewRequest = z.infer<typeof autosaveNewRequest>;

export const AUTOSAVE_VERSION_REQUIRED = 'version is required (the version the editor started from) unless force is true';

/**
 * PUT /blogs/{id}/autosave: `version` is required, except when the author chose 'Overwrite'
 * (`force: true`), which saves over whatever version is current. The document says so (anyOf).
 */
export const autosaveRequest = z
  .object({
    ...autosaveFields,
    /** The version the editor started from (GET /blogs/{id}/autosave); a stale one is refused with 409. */
    version: postVersion
      .optional()
      .meta({ description: 'The version the editor started from; a stale one is answered 409. Required unless force is true.' }),
    /** The author chose 'Overwrite' after a conflict. */
    force: z
      .boolean()
      .optional()
      .meta({ description: "true: the author chose 'Overwrite' after a conflict; version may then be left out" }),
  })
  .refine((body) => body.version !== undefined || body.force === true, { path: ['version'], message: AUTOSAVE_VERSION_REQUIRED })
  .meta({ anyOf: [{ required: ['version'] }, { required: ['force'], properties: { force: { const: true } } }] });
export type AutosaveRequest = z.infer<typeof autosaveRequest>;

export const autosaveResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  blogId: z.string(),
  version: z.number(),
  savedAt: z.string(),
});
export type AutosaveResponse = z.infer<typeof autosaveResponse>;

const snapshot = {
  title: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  image: z.string().nullable(),
  content: z.custom<BlogContent>(),
};

/** The author's pending (autosaved, not yet published) text of a post, if any. */
export const pendingAutosaveResponse = z.object({
  success: z.literal(true),
  /** The version a save must name. */
  version: z.number(),
  autosave: z.object({ ...snapshot, version: z.number(), savedAt: z.string() }).nullable(),
});
export type PendingAutosaveResponse = z.infer<typeof pendingAutosaveResponse>;

export const revisionSummarySchema = z.object({
  _id: z.string(),
  version: z.number(),
  reason: z.enum(['publish', 'update', 'restore']),
  title: z.string(),
  draft: z.boolean(),
  createdAt: z.string(),
});
export type RevisionSummary = z.infer<typeof revisionSummarySchema>;

export const revisionSchema = revisionSummarySchema.extend(snapshot);
export type Revision = z.infer<typeof revisionSchema>;

/** At most MAX_REVISIONS_PER_POST, newest first, so the list needs no paging. */
export const revisionListResponse = z.object({
  success: z.literal(true),
  version: z.number(),
  revisions: z.array(revisionSummarySchema),
});
export const revisionResponse = z.object({ success: z.literal(true), revision: revisionSchema });
export const restoreRequest = z.object({ version: postVersion.optional() });
export const restoreResponse = z.object({ success: z.literal(true), message: z.string(), version: z.number() });
