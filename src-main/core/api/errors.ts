import type { z } from 'zod';
import { isErrorCode, type ErrorCode } from '../../../src-shared/api/errors';
import { redact, redactDeep } from './redact';

export { redact, redactDeep, redactSecrets, registerSecret, REDACTED } from './redact';

/**
 * Base of every error the core raises. The message is scrubbed when the error is built, and `toJSON`/`toString`
 * go through the scrubber again, so neither logging nor serializing an error can reveal a credential.
 */
export abstract class PostdeskError extends Error {
  constructor(message: string) {
    super(redact(message));
    this.name = new.target.name;
  }
  override toString(): string {
    return redact(`${this.name}: ${this.message}`);
  }
  toJSON(): Record<string, unknown> {
    return redactDeep({ name: this.name, message: this.message, ...this.details() });
  }
  protected details(): Record<string, unknown> {
    return {};
  }
}

export interface FieldIssue {
  readonly path: string;
  readonly message: string;
}

/** The input broke the contract's schema; raised before anything is sent. */
export class ValidationError extends PostdeskError {
  readonly issues: readonly FieldIssue[];
  readonly operation: string | null;
  constructor(issues: readonly FieldIssue[], operation: string | null = null, what = 'input') {
    const head = operation ? `invalid ${what} for ${operation}` : `invalid ${what}`;
    super(`${head}: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}`);
    this.issues = issues.map((i) => ({ path: i.path, message: redact(i.message) }));
    this.operation = operation;
  }
  static fromZod(error: z.ZodError, operation: string | null = null, what = 'input'): ValidationError {
    return new ValidationError(error.issues.map(toFieldIssue), operation, what);
  }
  protected override details(): Record<string, unknown> {
    return { operation: this.operation, issues: this.issues };
  }
}

/** The service answered with an error status. */
export class ApiError extends PostdeskError {
  readonly status: number;
  /** The code when Postdesk knows it (`ErrorCode`): the one to act on. */
  readonly code: ErrorCode | null;
  /** The code as the service sent it, also one neither table lists: to show and to record. */
  readonly wireCode: string | null;
  readonly issues: unknown;
  readonly operation: string;
  /** From `Retry-After`, when the service sent one. */
  readonly retryAfterMs: number | null;
  constructor(init: {
    status: number;
    code?: ErrorCode | (string & {}) | null;
    message: string;
    issues?: unknown;
    operation: string;
    retryAfterMs?: number | null;
  }) {
    super(`${init.operation} failed: ${init.status}${init.code ? ` ${init.code}` : ''}: ${init.message}`);
    this.status = init.status;
    this.wireCode = init.code ?? null;
    this.code = isErrorCode(init.code) ? init.code : null;
    this.issues = init.issues === undefined ? undefined : redactDeep(init.issues);
    this.operation = init.operation;
    this.retryAfterMs = init.retryAfterMs ?? null;
  }
  protected override details(): Record<string, unknown> {
    return { status: this.status, code: this.wireCode, issues: this.issues, operation: this.operation };
  }
}

export type NetworkErrorKind = 'connect' | 'dns' | 'timeout' | 'reset' | 'aborted' | 'other';

/** The request failed below HTTP. `maybeCommitted` says whether it may have reached the server. */
export class NetworkError extends PostdeskError {
  readonly kind: NetworkErrorKind;
  /** The low-level code (ECONNREFUSED, UND_ERR_SOCKET, ...), never the original error object. */
  readonly causeCode: string | null;
  readonly maybeCommitted: boolean;
  readonly operation: string;
  readonly host: string;
  constructor(init: {
    kind: NetworkErrorKind;
    causeCode: string | null;
    causeMessage: string;
    maybeCommitted: boolean;
    operation: string;
    host: string;
  }) {
    super(
      `${init.operation} failed: network error (${init.kind}${init.causeCode ? ` ${init.causeCode}` : ''}) talking to ${init.host}: ${init.causeMessage}`,
    );
    this.kind = init.kind;
    this.causeCode = init.causeCode;
    this.maybeCommitted = init.maybeCommitted;
    this.operation = init.operation;
    this.host = init.host;
  }
  protected override details(): Record<string, unknown> {
    return {
      kind: this.kind,
      causeCode: this.causeCode,
      maybeCommitted: this.maybeCommitted,
      operation: this.operation,
      host: this.host,
    };
  }
}

/** An operation needs a credential the client does not have. */
export class CredentialMissingError extends PostdeskError {
  readonly credential: string;
  readonly operation: string;
  constructor(operation: string, credential: string, remedy: string) {
    super(`${operation} needs ${credential}: ${remedy}`);
    this.credential = credential;
    this.operation = operation;
  }
  protected override details(): Record<string, unknown> {
    return { credential: this.credential, operation: this.operation };
  }
}

const DATE_TIME_HINT = 'an ISO 8601 date-time with offset, e.g. 2030-01-01T09:00:00Z';

function unit(origin: unknown, n: unknown): string {
  const one = Number(n) === 1;
  if (origin === 'string') return one ? ' character' : ' characters';
  if (origin === 'array' || origin === 'set') return one ? ' item' : ' items';
  return '';
}

/** Turns a zod issue into "field: rule with limit", preferring the schema's own message when it wrote one. */
export function toFieldIssue(issue: z.core.$ZodIssue): FieldIssue {
  const path = issue.path.map(String).join('.');
  const own = issue.message && !/^(Too (big|small)|Invalid|Expected)/.test(issue.message);
  let message = issue.message;
  if (!own) {
    switch (issue.code) {
      case 'too_big':
        message = `must be at most ${String(issue.maximum)}${unit(issue.origin, issue.maximum)}${issue.inclusive === false ? ' (exclusive)' : ''}`;
        break;
      case 'too_small':
        message = `must be at least ${String(issue.minimum)}${unit(issue.origin, issue.minimum)}`;
        break;
      case 'invalid_format':
        message =
          issue.format === 'datetime'
            ? `must be ${DATE_TIME_HINT}`
            : issue.format === 'regex' && 'pattern' in issue
              ? `must match ${String(issue.pattern)}`
              : `must be a valid ${issue.format}`;
        break;
      case 'invalid_value':
        message = `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
        break;
      case 'invalid_type':
        message = `expected ${issue.expected}`;
        break;
      default:
        break;
    }
  }
  return { path, message };
}

/**
 * The request itself was refused, by the service (a 4xx other than a timeout or a rate limit) or before it left
 * (invalid input): the same request would be refused again, and no answer was lost. Every sender that must tell
 * a refusal from a lost answer (the outbox, recorded changes, many-at-once) asks this, so they agree.
 */
export function isRefusal(err: unknown): boolean {
  return (
    err instanceof ValidationError ||
    (err instanceof ApiError &&
      err.status >= 400 &&
      err.status < 500 &&
      err.status !== 408 &&
      err.status !== 429)
  );
}
