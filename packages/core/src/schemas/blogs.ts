import { z } from 'zod';
import { MAX_PAGE_LIMIT, MAX_SEARCH_LENGTH, MAX_TAGS } from '../constants';
import { BLOG_MESSAGES, MAX_DESCRIPTION_LENGTH, MAX_TAG_LENGTH, MAX_TITLE_LENGTH } from '../messages';
import { normalizeTag, TAG_MESSAGES, TAG_PATTERN } from '../rules/tags';
import type { BlogContent } from './blocks';
import { queryWholeNumber } from './common';
import { formVersion } from './revisions';
import { blogSeriesSchema } from './series';
import { optionalVisibleText, visibleText } from './text';

/** Tags as the server accepts them: in canonical form (normalizeTag), unique, at most 10. */
export const tagsField = z
  .array(z.string().max(MAX_TAG_LENGTH, TAG_MESSAGES.tooLong))
  .max(MAX_TAGS, TAG_MESSAGES.tooMany)
  .transform((tags) => [...new Set(tags.map(normalizeTag).filter(Boolean))])
  .pipe(z.array(z.string().regex(TAG_PATTERN, TAG_MESSAGES.characters)));

/** The furthest ahead a post may be scheduled. */
export const MAX_SCHEDULE_AHEAD_MS = 366 * 24 * 3600_000;
export const SCHEDULE_MESSAGES = {
  invalid: 'scheduledAt: must be a date and time with a time zone (ISO 8601)',
  past: 'scheduledAt: must be in the future',
  tooFar: 'scheduledAt: must be at most one year ahead',
} as const;

/** An ISO date-time in the future (at most a year ahead), normalised to UTC; '' or null: cancel. */
export const scheduledAtField = z.preprocess(
  (v) => (v === '' || v === 'null' ? null : v),
  z.iso
    .datetime({ offset: true, error: SCHEDULE_MESSAGES.invalid })
    .transform((v) => new Date(v).toISOString())
    .refine((v) => Date.parse(v) > Date.now(), SCHEDULE_MESSAGES.past)
    .refine((v) => Date.parse(v) <= Date.now() + MAX_SCHEDULE_AHEAD_MS, SCHEDULE_MESSAGES.tooFar)
    .nullable()
    .optional()
    .meta({
      type: ['string', 'null'],
      format: 'date-time',
      description: 'Publish this draft then (UTC); empty or null cancels the schedule',
    }),
);

const blogTitle = visibleText({
  required: BLOG_MESSAGES.titleRequired,
  max: MAX_TITLE_LENGTH,
  tooLong: `Title must be at most ${MAX_TITLE_LENGTH} characters`,
});
const blogDescription = optionalVisibleText({
  max: MAX_DESCRIPTION_LENGTH,
  tooLong: `Description must be at most ${MAX_DESCRIPTION_LENGTH} characters`,
  multiline: true,
});
const blogDraft = z.union([z.boolean(), z.enum(['true', 'false'])]).transform((d) => d === true || d === 'true');

/** The text fields of create and update (multipart fields arrive as strings). */
export const blogFields = z.object({
  title: blogTitle,
  description: blogDescription.default(''),
  draft: blogDraft.default(false),
});

/**
 * The body of POST /blogs and PATCH /blogs/{id}, as JSON or as multipart/form-data text fields
 * (content and tags then JSON strings). content, tags and image are checked by the blog rules
 * after the body (the server's content cleaner, tagsField), which name the problem in their own
 * words; here they are only described.
 */
export const blogBody = blogFields.extend({
  content: z
    .unknown()
    .optional()
    .meta({
      type: 'object',
      description: 'Editor.js output: { blocks: [{ type, data, tunes? }] } (a JSON string in a form)',
      properties: { blocks: { type: 'array', items: { type: 'object' } } },
    }),
  tags: z
    .unknown()
    .optional()
    .meta({
      type: 'array',
      description: 'Tags (a JSON array string in a form)',
      items: { type: 'string', maxLength: MAX_TAG_LENGTH },
      maxItems: MAX_TAGS,
    }),
  image: z
    .unknown()
    .optional()
    .meta({
      type: ['string', 'null'],
      description: 'Featured image: an uploaded image or https URL, or null / empty to remove it; in a form, the image file',
    }),
  /** The version the writer started from: a stale one is refused with 409 (autosave, two tabs). */
  version: formVersion,
  /** Publish this draft at that time (UTC); '' or null cancels a schedule, absent keeps it. */
  scheduledAt: scheduledAtField,
});

/**
 * The body of PATCH /blogs/{id}: as POST's, but a field left out keeps the post's current value
 * (a client sending only a new title must not publish a draft or empty its tags).
 */
export const blogUpdateBody = blogBody.extend({
  title: blogTitle.optional(),
  description: blogDescription.optional(),
  draft: blogDraft.optional(),
});

export const blogListQuery = z.object({
  page: queryWholeNumber(1, 100_000, 1),
  limit: queryWholeNumber(1, MAX_PAGE_LIMIT, 10),
  search: z.string().trim().max(MAX_SEARCH_LENGTH).optional(),
  tag: z.string().trim().max(MAX_TAG_LENGTH).optional(),
});
export type BlogListQuery = z.infer<typeof blogListQuery>;

export const creatorSchema = z
  .object({ _id: z.string(), name: z.string(), username: z.string(), profilePic: z.string().nullable() })
  .nullable();
export type Creator = z.infer<typeof creatorSchema>;

/** A blog in lists (home feed, search, tag, profile tabs). */
export const blogCardSchema = z.object({
  _id: z.string(),
  blogId: z.string(),
  title: z.string(),
  description: z.string(),
  image: z.string().nullable(),
  tags: z.array(z.string()),
  draft: z.boolean(),
  creator: creatorSchema,
  readingTime: z.number(),
  likeCount: z.number(),
  commentCount: z.number(),
  saveCount: z.number(),
  createdAt: z.string(),
  /** Drafts only, for their author: when the scheduled-posts job publishes it (UTC), else null. */
  scheduledAt: z.string().nullable().optional(),
  /** Hidden by a moderator or its author suspended (issue 15): only the author (and moderators) ever get true. */
  hidden: z.boolean(),
});
export type BlogCard = z.infer<typeof blogCardSchema>;

/** A whole blog (reading page, editor). Lists of ids are replaced by counts and the viewer's flags. */
export const blogSchema = blogCardSchema.extend({
  content: z.custom<BlogContent>(),
  updatedAt: z.string(),
  /** The post's series (issue 16), counting only posts the reader can see; before the flags (withViewerFlags). */
  series: blogSeriesSchema.nullable(),
  isLiked: z.boolean(),
  isSaved: z.boolean(),
  isFollowing: z.boolean(),
});
export type Blog = z.infer<typeof blogSchema>;

export const blogListResponse = z.object({ success: z.literal(true), blogs: z.array(blogCardSchema), hasMore: z.boolean() });
export type BlogListResponse = z.infer<typeof blogListResponse>;
export const blogResponse = z.object({ success: z.literal(true), blog: blogSchema });
export type BlogResponse = z.infer<typeof blogResponse>;
export const blogWriteResponse = z.object({ success: z.literal(true), message: z.string(), blog: blogCardSchema });

/** Editor.js image uploader protocol. */
export const uploadResponse = z.object({
  success: z.union([z.literal(1), z.literal(0)]),
  file: z
    .object({ url: z.string(), imageId: z.string().optional(), width: z.number().optional(), height: z.number().optional() })
    .optional(),
  message: z.string().optional(),
});
