import { z } from 'zod';

/** The common error body: `{error, code}`; post creation 400s carry `issues` instead of `code`. */
export const ErrorBody = z.looseObject({
  error: z.string(),
  code: z.string().optional(),
  issues: z.record(z.string(), z.unknown()).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
