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
  'METHOD_NOT_ALLOWED',
  'FORBIDDEN',
  'INTERNAL',
  'SANDBOX_FAULT',
] as const;

/** Codes the API client raises itself: a 2xx whose body broke the contract. */
export const CLIENT_CODES = ['INVALID_RESPONSE'] as const;

/**
 * Every code Postdesk knows: the service's table, the sandbox's codes for the cases the table leaves
 * unnamed, and the client's own. The sandbox answers only with these and a client acts only on these, so a
 * misspelt code does not compile.
 */
export type ErrorCode =
  (typeof ERROR_CODES)[number] | (typeof SANDBOX_CODES)[number] | (typeof CLIENT_CODES)[number];
const KNOWN_CODES: ReadonlySet<string> = new Set([...ERROR_CODES, ...SANDBOX_CODES, ...CLIENT_CODES]);
/** A code from the wire is one Postdesk can act on; any other stays text, shown but never acted on. */
export const isErrorCode = (code: unknown): code is ErrorCode =>
  typeof code === 'string' && KNOWN_CODES.has(code);
