import { z } from 'zod';
import {
  MAX_MODERATION_REASON_LENGTH,
  MAX_PAGE_LIMIT,
  MAX_REPORT_TEXT_LENGTH,
  MODERATION_ACTIONS,
  MODERATION_PAGE_SIZE,
  REPORT_REASONS,
  REPORT_TARGET_TYPES,
  USER_ROLES,
} from '../constants';
import { MODERATION_MESSAGES, REPORT_MESSAGES } from '../messages';
import { queryWholeNumber } from './common';
import { normalizeText } from './text';

/**
 * Reports and moderation (issue 15): POST /reports, and /moderation/* for moderators and admins.
 * Ids of targets: a post by its blogId (the id in /blog/{blogId}), a comment and a user by their _id.
 */

export const userRoleSchema = z.enum(USER_ROLES, { error: 'Role must be user, moderator or admin' });
export const reportTargetTypeSchema = z.enum(REPORT_TARGET_TYPES, { error: 'targetType must be post, comment or user' });
export const reportReasonSchema = z.enum(REPORT_REASONS, { error: REPORT_MESSAGES.reasonInvalid });
export const moderationActionSchema = z.enum(MODERATION_ACTIONS);

const reportText = z
  .string()
  .transform((s) => normalizeText(s, { multiline: true }))
  .pipe(z.string().max(MAX_REPORT_TEXT_LENGTH, REPORT_MESSAGES.textTooLong));

export const createReportBody = z
  .object({
    targetType: reportTargetTypeSchema,
    targetId: z.string({ error: 'targetId is required' }).min(1, 'targetId is required').max(120),
    reason: reportReasonSchema,
    text: reportText.optional(),
  })
  .refine((b) => b.reason !== 'other' || !!b.text, { message: REPORT_MESSAGES.textRequired, path: ['text'] });
export type CreateReportBody = z.input<typeof createReportBody>;

export const reportSchema = z.object({
  id: z.string(),
  targetType: reportTargetTypeSchema,
  targetId: z.string(),
  reason: reportReasonSchema,
  createdAt: z.string(),
});
export type Report = z.infer<typeof reportSchema>;
export const createReportResponse = z.object({ success: z.literal(true), message: z.string(), report: reportSchema });
export type CreateReportResponse = z.infer<typeof createReportResponse>;

/** The reason of a hide, restore, suspend or unsuspend: required, trimmed, 1–1000 characters. */
export const moderationReasonField = z
  .string({ error: MODERATION_MESSAGES.reasonRequired })
  .transform((s) => normalizeText(s, { multiline: true }))
  .pipe(z.string().min(1, MODERATION_MESSAGES.reasonRequired).max(MAX_MODERATION_REASON_LENGTH, MODERATION_MESSAGES.reasonTooLong));
export const moderationReasonBody = z.object({ reason: moderationReasonField });
export type ModerationReasonBody = z.input<typeof moderationReasonBody>;
/** Dismissing a report: the reason is optional. */
export const dismissReportBody = z.object({
  reason: z
    .string()
    .transform((s) => normalizeText(s, { multiline: true }))
    .pipe(z.string().max(MAX_MODERATION_REASON_LENGTH, MODERATION_MESSAGES.reasonTooLong))
    .optional(),
});
export type DismissReportBody = z.input<typeof dismissReportBody>;
export const roleBody = z.object({ role: userRoleSchema });
export type RoleBody = z.input<typeof roleBody>;

/** Keyset pages: the cursor is opaque (the previous page's nextCursor). */
export const moderationPageQuery = z.object({
  cursor: z.string().max(200).optional(),
  limit: queryWholeNumber(1, MAX_PAGE_LIMIT, MODERATION_PAGE_SIZE),
});
export type ModerationPageQuery = z.input<typeof moderationPageQuery>;

export const moderationUserSchema = z.object({ id: z.string(), username: z.string(), name: z.string() });
export type ModerationUser = z.infer<typeof moderationUserSchema>;

export const reportGroupSchema = z.object({
  targetType: reportTargetTypeSchema,
  targetId: z.string(),
  target: z.object({
    /** Post title, comment excerpt, or the user's name. */
    title: z.string(),
    /** /blog/{blogId}, /blog/{blogId}#comment-{commentId} or /profile/{username}. */
    url: z.string(),
    author: moderationUserSchema,
    /** Hidden by a moderator (what Hide and Restore change); never for a user. */
    hidden: z.boolean(),
    authorSuspended: z.boolean(),
  }),
  reports: z.array(
    z.object({
      id: z.string(),
      reason: reportReasonSchema,
      text: z.string().nullable(),
      reporter: moderationUserSchema,
      createdAt: z.string(),
    }),
  ),
  latestAt: z.string(),
});
export type ReportGroup = z.infer<typeof reportGroupSchema>;
export const reportQueueResponse = z.object({
  success: z.literal(true),
  items: z.array(reportGroupSchema),
  nextCursor: z.string().nullable(),
});
export type ReportQueueResponse = z.infer<typeof reportQueueResponse>;

export const auditEntrySchema = z.object({
  id: z.string(),
  /** null: the action came from the command line (shown as MODERATION_MESSAGES.commandLine). */
  moderator: moderationUserSchema.nullable(),
  action: moderationActionSchema,
  targetType: reportTargetTypeSchema,
  targetId: z.string(),
  /** What the target was called at the time (title, excerpt or username), kept after it is deleted. */
  targetLabel: z.string(),
  reason: z.string().nullable(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditLogResponse = z.object({
  success: z.literal(true),
  items: z.array(auditEntrySchema),
  nextCursor: z.string().nullable(),
});
export type AuditLogResponse = z.infer<typeof auditLogResponse>;

/** The 'Hidden and suspended' list: which kind of item it shows. */
export const HIDDEN_LIST_KINDS = ['posts', 'comments', 'users'] as const;
export type HiddenListKind = (typeof HIDDEN_LIST_KINDS)[number];

/** GET /moderation/hidden?kind=posts|comments|users&cursor=&limit= (limit 1–MAX_PAGE_LIMIT). */
export const hiddenListQuery = z.object({
  kind: z.enum(HIDDEN_LIST_KINDS, { error: 'kind must be posts, comments or users' }),
  cursor: z.string().max(200).optional(),
  limit: queryWholeNumber(1, MAX_PAGE_LIMIT, MODERATION_PAGE_SIZE),
});
export type HiddenListQuery = z.input<typeof hiddenListQuery>;

/** The audit row of the hide or suspension that is in force: when, by whom (null: the command line) and why. */
export const hiddenActionSchema = z.object({
  at: z.string(),
  by: moderationUserSchema.nullable(),
  reason: z.string().nullable(),
});
export type HiddenAction = z.infer<typeof hiddenActionSchema>;

const hiddenPost = z.object({
  /** The post's blogId: what /moderation/posts/:blogId/restore takes. */
  _id: z.string(),
  title: z.string(),
  /** /blog/{blogId} */
  url: z.string(),
  author: moderationUserSchema,
});

export const hiddenItemSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('post'), post: hiddenPost, action: hiddenActionSchema }),
  z.object({
    kind: z.literal('comment'),
    comment: z.object({
      _id: z.string(),
      /** The comment's first characters, plain text. */
      excerpt: z.string(),
      /** /blog/{blogId}#comment-{commentId} */
      url: z.string(),
      author: moderationUserSchema,
      post: hiddenPost.pick({ _id: true, title: true, url: true }),
    }),
    action: hiddenActionSchema,
  }),
  z.object({
    kind: z.literal('user'),
    /** url: /profile/{username} */
    user: z.object({ _id: z.string(), username: z.string(), name: z.string(), url: z.string() }),
    action: hiddenActionSchema,
  }),
]);
export type HiddenItem = z.infer<typeof hiddenItemSchema>;
export const hiddenListResponse = z.object({
  success: z.literal(true),
  items: z.array(hiddenItemSchema),
  nextCursor: z.string().nullable(),
});
export type HiddenListResponse = z.infer<typeof hiddenListResponse>;
