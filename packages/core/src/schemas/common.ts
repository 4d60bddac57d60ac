import { z } from 'zod';

/** Every error response of the API. */
export const errorResponse = z.object({ success: z.literal(false), message: z.string() });
export type ErrorResponse = z.infer<typeof errorResponse>;

export const messageResponse = z.object({ success: z.boolean().optional(), message: z.string() });
