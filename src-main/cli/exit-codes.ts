import { CommanderError } from 'commander';
import { ApiError, NetworkError, ValidationError, redact, redactDeep } from '../core/api/errors';
import { errorText } from '../core/common/error-text';

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

export function exitCodeFor(err: unknown): ExitCode {
  if (err instanceof ValidationError) return EXIT.badInput;
  if (err instanceof NotFoundError) return EXIT.service;
  if (err instanceof ApiError) return EXIT.service;
  if (err instanceof NetworkError) return EXIT.network;
  if (err instanceof CommanderError) {
    if (err.exitCode === 0) return EXIT.ok;
    return EXIT.badInput;
  }
  return EXIT.other;
}

/** The `{error: …}` document printed with `--json`. */
export function errorJson(err: unknown): { error: Record<string, unknown> } {
  if (err instanceof ValidationError || err instanceof ApiError || err instanceof NetworkError) {
    return { error: err.toJSON() };
  }
  const e = err instanceof Error ? err : new Error(String(err));
  return { error: redactDeep({ name: e.name, message: e.message }) };
}

/** Human lines for an error: the message, then one line per field issue. */
export function errorLines(err: unknown): string[] {
  if (err instanceof ValidationError) {
    return [
      `invalid ${err.operation ? `input for ${err.operation}` : 'input'}:`,
      ...err.issues.map((i) => `  ${i.path || '(input)'}: ${i.message}`),
    ];
  }
  const lines = [redact(errorText(err))];
  if (err instanceof ApiError && err.issues && typeof err.issues === 'object') {
    for (const [k, v] of Object.entries(err.issues as Record<string, unknown>)) {
      lines.push(`  ${k}: ${redact(typeof v === 'string' ? v : JSON.stringify(v))}`);
    }
  }
  if (err instanceof NetworkError && err.maybeCommitted) {
    lines.push('  the request may have reached the service; check before repeating it');
  }
  return lines;
}
