import { Readable } from 'node:stream';
import type { z } from 'zod';
import type { ErrorCode } from '../src-shared/api/errors';
import { SandboxError, zodToSandboxError } from './errors';

/** Parses request input with a contract schema; a failure is a 400 naming each field and its limit. */
export function parse<S extends z.ZodType>(
  schema: S,
  input: unknown,
  opts: { postCreation?: boolean; code?: ErrorCode } = {},
): z.infer<S> {
  // Non-JSON bodies arrive as raw streams (see app.ts); a JSON route must not read them as objects.
  if (input instanceof Readable) {
    throw new SandboxError(
      415,
      'VALIDATION_FAILED',
      'body: must be JSON sent with content-type: application/json',
    );
  }
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw zodToSandboxError(result.error, opts);
  return result.data;
}
