import { z } from 'zod';

/**
 * The body of every non-2xx answer, on the app API and the platform API alike
 * (the hosted platform's error shape). `fields` is our addition: one message per
 * invalid input field, keyed by the field's path (`email`, `model.temperature`).
 */
export const apiErrorSchema = z.object({
  statusCode: z.number().int(),
  error: z.string(),
  message: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

/** Recognises an error body without trusting it: anything else is not an ApiError. */
export function isApiError(value: unknown): value is ApiError {
  return apiErrorSchema.safeParse(value).success;
}
