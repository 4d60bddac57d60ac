import { z } from 'zod';
import { visibleText } from './text';

/** Series (issue 16): an author's ordered group of posts, 'Part n of m' on each post's page. */
export const SERIES_MESSAGES = {
  notFound: 'Series not found',
  notAuthor: 'You can only change your own series',
  notYourPost: 'You can only add your own posts to a series',
  created: 'Series created',
  renamed: 'Series renamed',
  deleted: 'Series deleted',
  updated: 'Series updated',
} as const;

export const MAX_SERIES_TITLE_LENGTH = 100;
/** Posts in one series; dev.to has no limit, this keeps the page's list short enough to read. */
export const MAX_SERIES_POSTS = 100;

const seriesTitle = visibleText({
  required: 'Title is required',
  max: MAX_SERIES_TITLE_LENGTH,
  tooLong: `Title must be at most ${MAX_SERIES_TITLE_LENGTH} characters`,
});
const blogIdField = z.string().min(1).max(120);

export const seriesTitleRequest = z.object({ title: seriesTitle });
/** The series' posts in order (public blog ids); a post in another of the author's series moves here. */
export const seriesPostsRequest = z.object({
  blogIds: z.array(blogIdField).max(MAX_SERIES_POSTS, `A series has at most ${MAX_SERIES_POSTS} posts`),
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
export const seriesListResponse = z.object({ success: z.literal(true), series: z.array(seriesSchema) });
export type SeriesListResponse = z.infer<typeof seriesListResponse>;
