import { CommanderError } from 'commander';
import { OPERATION_WORDS, operationWords } from '../../src-shared/api/operation-words';
import {
  ApiError,
  CredentialMissingError,
  NetworkError,
  ValidationError,
  redact,
  redactDeep,
} from '../core/api/errors';
import { errorText } from '../core/common/error-text';
import { ApiKeyFileError } from '../core/secrets/secret-store';

/** The CLI's exit codes; docs/cli.md documents them. */
export const EXIT = {
  ok: 0,
  other: 1,
  badInput: 2,
  service: 3,
  network: 4,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * The service answered, and has nothing by that id (an empty batch, no such post among the listed ones): exit 3,
 * as its own 404 would be.
 */
export class NotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotFoundError';
  }
}

/** The service refused, told in words already (a refusal relayed from another path than the API client). */
export class RefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedError';
  }
}

/** The service could not be reached, told in words already. */
export class UnreachableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreachableError';
  }
}

export function exitCodeFor(err: unknown): ExitCode {
  if (err instanceof ValidationError) return EXIT.badInput;
  if (err instanceof NotFoundError || err instanceof RefusedError) return EXIT.service;
  if (err instanceof UnreachableError) return EXIT.network;
  // POSTDESK_API_KEY_FILE names a file that cannot be used: input of this machine, as a bad --body-file is.
  if (err instanceof ApiKeyFileError) return EXIT.badInput;
  if (err instanceof ApiError) return EXIT.service;
  if (err instanceof NetworkError) return EXIT.network;
  if (err instanceof CommanderError) {
    if (err.exitCode === 0) return EXIT.ok;
    return EXIT.badInput;
  }
  return EXIT.other;
}

/** What an error is reported against: the long options of the command that ran (`caption`, `body`, …). */
export interface ErrorContext {
  readonly flags?: ReadonlySet<string>;
}

/** The contract's field names whose flag is named otherwise (`--body` sends `body_markdown`). */
const FIELD_FLAGS: Readonly<Record<string, string>> = {
  body_markdown: 'body',
  scheduled_at: 'at',
  scheduled_time: 'at',
  targets: 'target',
  add_targets: 'add-target',
  canonical_url: 'canonical-url',
  tags: 'tag',
};

/** A field path as the person typed it: the flag (`--caption`, `--target[0]`) when the command has one. */
export function fieldName(path: string, ctx: ErrorContext = {}): string {
  const m = /^([A-Za-z_][\w-]*)(.*)$/s.exec(path);
  if (!m) return path;
  const [, head = '', rest = ''] = m;
  const flag = FIELD_FLAGS[head] ?? head;
  return ctx.flags?.has(flag) ? `--${flag}${rest}` : path;
}

/** How a request that got no answer failed, in words (no errno). */
const NETWORK_WORDS: Readonly<Record<NetworkError['kind'], string>> = {
  connect: 'nothing accepted the connection',
  dns: 'the name does not resolve',
  timeout: 'it did not answer in time',
  reset: 'the connection was cut',
  aborted: 'the request was stopped',
  other: 'the connection failed',
};

/** A refused or lost request, told as what was being done ("could not delete the post"), never the operation. */
function headline(err: unknown): string {
  if (err instanceof ApiError) {
    const what = operationWords(err.operation);
    const answer = `${err.status}${err.wireCode ? ` ${err.wireCode}` : ''}`;
    const said = err.message.replace(/^\S+ failed: \d{3}(?: [A-Z][A-Z0-9_]*)?: /, '');
    return `${what ? `could not ${what}` : 'the service refused'}: ${said} (the service answered ${answer})`;
  }
  if (err instanceof NetworkError) {
    const what = operationWords(err.operation);
    return `${what ? `could not ${what}` : 'no answer'}: no answer from ${err.host} (${NETWORK_WORDS[err.kind]})`;
  }
  if (err instanceof ApiKeyFileError) {
    return err.message.replace(/cannot be read \((\w+)\)/, (_m, code: string) =>
      code === 'ENOENT' || code === 'ENOTDIR'
        ? 'does not exist'
        : code === 'EACCES' || code === 'EPERM'
          ? 'cannot be read: you are not allowed to read it'
          : 'cannot be read',
    );
  }
  if (err instanceof CredentialMissingError) {
    const what = operationWords(err.operation);
    return err.message.replace(/^\S+ needs /, what ? `to ${what} Postdesk needs ` : 'Postdesk needs ');
  }
  return inUserWords(errorText(err));
}

const OPERATION_NAMES = Object.keys(OPERATION_WORDS).join('|');
const NESTED_REFUSAL = new RegExp(
  `\\b(${OPERATION_NAMES}) failed: (\\d{3})(?: ([A-Z][A-Z0-9_]*))?: ([^\\n);]*)`,
  'g',
);
const NESTED_NETWORK = new RegExp(
  `\\b(${OPERATION_NAMES}) failed: network error \\((\\w+)[^)]*\\) talking to (\\S+?): [^\\n);]*`,
  'g',
);

/**
 * A core error's text nested in another's ("clip.mp4: reserveMedia failed: 503 SANDBOX_FAULT: busy", a batch's
 * "bulkCreate failed: network error (reset ECONNRESET) talking to …") in the user's words: what was being done,
 * what the service said, its status; never the operation's name or an errno.
 */
export function inUserWords(text: string): string {
  return text
    .replace(
      NESTED_NETWORK,
      (_m, op: string, kind: string, host: string) =>
        `could not ${operationWords(op) ?? 'reach the service'}: no answer from ${host} (${NETWORK_WORDS[kind as NetworkError['kind']] ?? NETWORK_WORDS.other})`,
    )
    .replace(
      NESTED_REFUSAL,
      (_m, op: string, status: string, code: string | undefined, said: string) =>
        `could not ${operationWords(op) ?? 'do it'}: ${said} (the service answered ${status}${code ? ` ${code}` : ''})`,
    );
}

/** A 401 to a call made with the API key: the key is missing, wrong, expired or revoked, and this is the fix. */
const KEY_HINT =
  '  the service did not accept the API key: run `postdesk login` with a valid key, or set POSTDESK_API_KEY';

function keyRefused(err: unknown): boolean {
  return (
    err instanceof ApiError &&
    err.status === 401 &&
    err.wireCode !== 'RUN_TOKEN_REQUIRED' &&
    err.wireCode !== 'SOCIAL_TOKEN_EXPIRED'
  );
}

/** The `{error: …}` document printed with `--json`: its message in the same words as the human one. */
export function errorJson(err: unknown, ctx: ErrorContext = {}): { error: Record<string, unknown> } {
  if (err instanceof ValidationError || err instanceof ApiError || err instanceof NetworkError) {
    return { error: { ...err.toJSON(), message: errorLines(err, ctx).join('\n') } };
  }
  const e = err instanceof Error ? err : new Error(String(err));
  return { error: redactDeep({ name: e.name, message: headline(e) }) };
}

/** Human lines for an error: the message, then one line per field issue, each field named by its flag. */
export function errorLines(err: unknown, ctx: ErrorContext = {}): string[] {
  if (err instanceof ValidationError) {
    return [
      'invalid input:',
      ...err.issues.map((i) => `  ${i.path ? fieldName(i.path, ctx) : '(input)'}: ${i.message}`),
    ];
  }
  const lines = [redact(headline(err))];
  if (err instanceof ApiError && err.issues && typeof err.issues === 'object') {
    for (const [k, v] of Object.entries(err.issues as Record<string, unknown>)) {
      lines.push(`  ${fieldName(k, ctx)}: ${redact(typeof v === 'string' ? v : JSON.stringify(v))}`);
    }
  }
  if (keyRefused(err)) lines.push(KEY_HINT);
  if (err instanceof NetworkError && err.maybeCommitted) {
    lines.push('  the request may have reached the service; check before repeating it');
  }
  return lines;
}
