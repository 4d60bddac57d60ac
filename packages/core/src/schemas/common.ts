import { z } from 'zod';

/** Every error response of the API. */
export const errorResponse = z.object({ success: z.literal(false), message: z.string() });
export type ErrorResponse = z.infer<typeof errorResponse>;

export const messageResponse = z.object({ success: z.boolean().optional(), message: z.string() });

const WHOLE_NUMBER_MESSAGE = 'Must be a whole number written in digits';

/**
 * A whole number in a query string, written in digits only, with no leading zero: `z.coerce.number`
 * read `0x10` as 16, `1e3` as 1000, ` 5`, `4.0` and `05` as 5, so one page had many URLs (each its
 * own entry in the response cache). The API reference shows it as the integer it is.
 */
export const queryWholeNumber = (min: number, max: number, fallback: number) =>
  z
    .string()
    .regex(/^(?:0|[1-9]\d{0,9})$/, { error: WHOLE_NUMBER_MESSAGE })
    .meta({ type: 'integer', minimum: min, maximum: max, default: fallback })
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .default(fallback);
