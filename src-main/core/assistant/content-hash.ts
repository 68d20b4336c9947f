import { createHash } from 'node:crypto';
import { DRY_RUN_ARG } from '../../../src-shared/assistant';

/** JSON with object keys sorted at every level, so the same content always gives the same text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The arguments that go to the service: `dry_run` is the gate's own, never sent. */
export function sentArguments(args: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out = { ...args };
  delete out[DRY_RUN_ARG];
  return out;
}

/**
 * What an approval is bound to: sha256 of the tool and the exact arguments it sends. Any change to either,
 * however small (a character of the caption, a target, a time), gives another hash, so another approval.
 */
export const contentHash = (tool: string, args: Readonly<Record<string, unknown>>): string =>
  createHash('sha256')
    .update(canonical({ tool, arguments: sentArguments(args) }))
    .digest('hex');
