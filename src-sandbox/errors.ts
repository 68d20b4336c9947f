import type { ZodError } from 'zod';
import type { ErrorCode } from '../src-shared/api/errors';

/**
 * An error the sandbox answers with: `{error, code}`, or `{error, issues}` for the post-creation 400
 * (service-api.md, Errors). The Fastify error handler in app.ts turns it into the response.
 */
export class SandboxError extends Error {
  readonly status: number;
  readonly code: ErrorCode | undefined;
  readonly issues: Record<string, unknown> | undefined;

  constructor(
    status: number,
    code: ErrorCode | undefined,
    message: string,
    issues?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'SandboxError';
    this.status = status;
    this.code = code;
    this.issues = issues;
  }

  /** The response body: post-creation 400s carry `issues` instead of `code`. */
  body(): { error: string; code?: ErrorCode; issues?: Record<string, unknown> } {
    if (this.issues) return { error: this.message, issues: this.issues };
    return this.code === undefined ? { error: this.message } : { error: this.message, code: this.code };
  }
}

/**
 * A JSON body that does not parse, or nests deeper than the sandbox reads; app.ts answers it in the
 * shape the route's contract names.
 */
export class InvalidJsonBody extends SandboxError {
  /** What is wrong with the body, e.g. "is not valid JSON". */
  readonly reason: string;

  constructor(reason = 'is not valid JSON') {
    super(400, 'VALIDATION_FAILED', `body: ${reason}`);
    this.reason = reason;
  }
}

export const notFound = (what: string): SandboxError =>
  new SandboxError(404, 'NOT_FOUND', `${what} not found`);

type ZodIssue = ZodError['issues'][number];

const unitOf = (origin: unknown): string => {
  switch (origin) {
    case 'string':
      return ' characters';
    case 'array':
    case 'set':
      return ' items';
    case 'file':
      return ' bytes';
    default:
      return '';
  }
};

/** One issue in words that name the limit, e.g. "must be at most 2200 characters". */
function describeIssue(issue: ZodIssue): string {
  const i = issue as ZodIssue & Record<string, unknown>;
  switch (issue.code) {
    case 'too_big': {
      const inclusive = i.inclusive !== false;
      const unit = unitOf(i.origin);
      if (i.origin === 'number' || i.origin === 'bigint' || i.origin === 'date') {
        // Custom messages (e.g. the per-type upload size) already name the limit.
        if (issue.message && !issue.message.startsWith('Too big')) return issue.message;
        return `must be ${inclusive ? 'at most' : 'less than'} ${String(i.maximum)}`;
      }
      return `must be ${inclusive ? 'at most' : 'fewer than'} ${String(i.maximum)}${unit}`;
    }
    case 'too_small': {
      const inclusive = i.inclusive !== false;
      const unit = unitOf(i.origin);
      if ((i.origin === 'string' || i.origin === 'array') && i.minimum === 1) {
        return i.origin === 'string'
          ? 'must not be empty (at least 1 character)'
          : 'must have at least 1 item';
      }
      if (i.origin === 'number' || i.origin === 'bigint' || i.origin === 'date') {
        return `must be ${inclusive ? 'at least' : 'greater than'} ${String(i.minimum)}`;
      }
      return `must be ${inclusive ? 'at least' : 'more than'} ${String(i.minimum)}${unit}`;
    }
    case 'invalid_type': {
      const received = /received (\w+)/.exec(issue.message)?.[1];
      if (received === 'undefined' || (received === undefined && i.input === undefined)) {
        return `is required (${String(i.expected)})`;
      }
      return `must be ${String(i.expected)}${received ? ` (got ${received})` : ''}`;
    }
    case 'invalid_value': {
      const values = Array.isArray(i.values) ? i.values : [];
      return values.length === 1
        ? `must be ${JSON.stringify(values[0])}`
        : `must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}`;
    }
    case 'invalid_format': {
      const format = String(i.format);
      if (format === 'regex')
        return issue.message.startsWith('must') ? issue.message : `must match ${String(i.pattern)}`;
      if (format === 'datetime') return 'must be an ISO 8601 date-time with a time zone offset';
      return `must be a valid ${format}`;
    }
    case 'unrecognized_keys':
      return `unknown field(s): ${(Array.isArray(i.keys) ? i.keys : []).join(', ')}`;
    case 'invalid_union':
      return issue.message.startsWith('Invalid') ? 'does not match any accepted shape' : issue.message;
    default:
      return issue.message;
  }
}

const pathOf = (issue: ZodIssue): string =>
  issue.path.length === 0 ? 'body' : issue.path.map((p) => String(p)).join('.');

/** A 400 whose message names each failing field and its limit ("caption: must be at most 2200 characters"). */
export function zodToSandboxError(
  err: ZodError,
  opts: { postCreation?: boolean; code?: ErrorCode; prefix?: string } = {},
): SandboxError {
  const issues: Record<string, string> = {};
  for (const issue of err.issues) {
    const path = `${opts.prefix ?? ''}${pathOf(issue)}`;
    issues[path] = issues[path] ? `${issues[path]}; ${describeIssue(issue)}` : describeIssue(issue);
  }
  const message = Object.entries(issues)
    .map(([path, text]) => `${path}: ${text}`)
    .join('; ');
  if (opts.postCreation) return new SandboxError(400, undefined, message, issues);
  return new SandboxError(400, opts.code ?? 'VALIDATION_FAILED', message);
}
