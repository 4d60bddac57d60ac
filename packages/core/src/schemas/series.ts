import { z } from 'zod';
import { MAX_PAGE_LIMIT } from '../constants';
import { queryWholeNumber } from './common';
import { visibleText } from './text';

/** Posts in one series; dev.to has no limit, this keeps the page's list short enough to read. */
export const MAX_SERIES_POSTS = 100;

/** Series (issue 16): an author's ordered group of posts, 'Part n of m' on each post's page. */
export const SERIES_MESSAGES = {
  notFound: 'Series not found',
  notAuthor: 'You can only change your own series',
  notYourPost: 'You can only add your own posts to a series',
  created: 'Series created',
  renamed: 'Series renamed',
  deleted: 'Series deleted',
  updated: 'Series updated',
  full: `A series has at most ${MAX_SERIES_POSTS} posts`,
} as const;

export const MAX_SERIES_TITLE_LENGTH = 100;
/** Series per page of GET /series/mine (the editor's picker loads the next page on demand). */
export const SERIES_PAGE_SIZE = MAX_PAGE_LIMIT;

const seriesTitle = visibleText({
  required: 'Title is required',
  max: MAX_SERIES_TITLE_LENGTH,
  tooLong: `Title must be at most ${MAX_SERIES_TITLE_LENGTH} characters`,
});
const blogIdField = z.string().min(1).max(120);

export const seriesTitleRequest = z.object({ title: seriesTitle });
/** The series' posts in order (public blog ids); a post in another of the author's series moves here. */
export const seriesPostsRequest = z.object({
  blogIds: z.array(blogIdField).max(MAX_SERIES_POSTS, SERIES_MESSAGES.full),
});
/** A post's series from the editor: appended at the end, or null to leave its series. */
export const blogSeriesRequest = z.object({ seriesId: z.string().min(1).max(64).nullable() });

export const seriesPostSchema = z.object({ blogId: z.string(), title: z.string(), part: z.number() });
/** What a post's page shows: its place among the series' posts the reader can see. */
export const blogSeriesSchema = z.object({
  id: z.string(),
  title: z.string(),
  part: z.number(),
  total: z.number(),
  posts: z.array(seriesPostSchema),
});
export type BlogSeries = z.infer<typeof blogSeriesSchema>;

export const seriesSchema = z.object({
  id: z.string(),
  title: z.string(),
  authorId: z.string(),
  createdAt: z.string(),
  posts: z.array(seriesPostSchema),
});
export type Series = z.infer<typeof seriesSchema>;

export const seriesResponse = z.object({ success: z.literal(true), series: seriesSchema });
export type SeriesResponse = z.infer<typeof seriesResponse>;
export const seriesWriteResponse = z.object({ success: z.literal(true), message: z.string(), series: seriesSchema });

/** GET /series/mine: the author's series, oldest first, a page at a time (keyset). */
export const seriesMineQuery = z.object({
  /** The previous page's nextCursor. */
  cursor: z.string().max(200).optional().meta({ description: "The previous page's nextCursor" }),
  limit: queryWholeNumber(1, SERIES_PAGE_SIZE, SERIES_PAGE_SIZE),
});
export type SeriesMineQuery = z.infer<typeof seriesMineQuery>;

/** Each series carries its posts (at most MAX_SERIES_POSTS); nextCursor asks for the next page, null at the end. */
export const seriesListResponse = z.object({
  success: z.literal(true),
  series: z.array(seriesSchema),
  hasMore: z.boolean(),
  nextCursor: z.string().nullable(),
});
export type SeriesListResponse = z.infer<typeof seriesListResponse>;
