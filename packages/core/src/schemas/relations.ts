import { z } from 'zod';
import { queryWholeNumber } from './common';
import { userCardSchema } from './users';

/** Blocking and muting (issue 15): POST/DELETE /users/{id}/block and /mute, GET /blocks. */
export const blockListQuery = z.object({
  page: queryWholeNumber(1, 10_000, 1),
  limit: queryWholeNumber(1, 50, 20),
  kind: z.enum(['blocked', 'muted']).default('blocked'),
});
export type BlockListQuery = z.infer<typeof blockListQuery>;

export const blockedUserSchema = userCardSchema.extend({ since: z.string() });
export type BlockedUser = z.infer<typeof blockedUserSchema>;

export const blockListResponse = z.object({ success: z.literal(true), users: z.array(blockedUserSchema), hasMore: z.boolean() });
export type BlockListResponse = z.infer<typeof blockListResponse>;

export const relationResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  isBlocked: z.boolean(),
  isMuted: z.boolean(),
});
export type RelationResponse = z.infer<typeof relationResponse>;
