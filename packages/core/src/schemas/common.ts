import { z } from 'zod';
import { MAX_PAGE_LIMIT } from '../constants';

/** Every error response of the API. */
export const errorResponse = z.object({ success: z.literal(false), message: z.string() });
export type ErrorResponse = z.infer<typeof errorResponse>;

export const messageResponse = z.object({ success: z.boolean().optional(), message: z.string() });

/** Page-based pagination with a capped limit (every list of the API). */
export const paginationQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(10),
});
