import { z } from 'zod';

/** Every error response of the API. */
export const errorResponse = z.object({ success: z.literal(false), message: z.string() });
export type ErrorResponse = z.infer<typeof errorResponse>;

export const messageResponse = z.object({ success: z.boolean().optional(), message: z.string() });

const WHOLE_NUMBER_MESSAGE = 'Must be a whole number written in digits';

/**
 * A whole number in a query string, written in digits only. `z.coerce.number` read `0x10` as 16,
 * `1e3` as 1000 and ` 5` as 5, so one page had many URLs (each its own cache entry).
 */
export const queryWholeNumber = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,10}$/, { error: WHOLE_NUMBER_MESSAGE })
    .meta({ description: `A whole number from ${min} to ${max}` })
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
