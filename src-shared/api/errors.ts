import { z } from 'zod';

/** Every named error code of the service's error table. */
export const ERROR_CODES = [
  'INVALID_POST_UPDATE',
  'INVALID_RUN_OUTPUT',
  'RUN_TOKEN_REQUIRED',
  'SOCIAL_TOKEN_EXPIRED',
  'EXECUTOR_MISMATCH',
  'YOUTUBE_PARENT_RUNNER_REQUIRED',
  'EXECUTOR_NOT_FOUND',
  'DIRECT_UPLOAD_NOT_FOUND',
  'MEDIA_UPLOAD_CONFLICT',
  'REVISION_STALE',
  'AUTOMATION_PAUSED',
  'NO_TARGETS',
  'WRONG_EXECUTION_MODE',
  'AUTOMATION_REMOVED',
  'RUN_CONFLICT',
  'RUN_NOT_ACTIVE',
  'CLAIM_CONFLICT',
  'DIRECT_UPLOAD_CONFLICT',
  'MEDIA_STORAGE_QUOTA_EXCEEDED',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * Codes the contract leaves "not shown"; the sandbox uses these and docs/sandbox.md lists them.
 * Clients must treat any code as opaque text and rely on the status.
 */
export const SANDBOX_CODES = [
  'UNAUTHORIZED',
  'FORBIDDEN_SCOPE',
  'VALIDATION_FAILED',
  'NOT_FOUND',
  'POST_NOT_DELETABLE',
  'BULK_IDEMPOTENCY_CONFLICT',
  'UPLOAD_URL_EXPIRED',
  'UPLOAD_INTEGRITY_MISMATCH',
  'UPLOAD_URL_INVALID',
  'RANGE_NOT_SATISFIABLE',
  'FORBIDDEN',
  'INTERNAL',
  'SANDBOX_FAULT',
] as const;

/** The common error body: `{error, code}`; post creation 400s carry `issues` instead of `code`. */
export const ErrorBody = z.looseObject({
  error: z.string(),
  code: z.string().optional(),
  issues: z.record(z.string(), z.unknown()).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
