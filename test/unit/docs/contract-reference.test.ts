import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ARTICLE_DESTINATIONS,
  ARTICLE_STATUSES,
  DELIVERY_STATUSES,
  ERROR_CODES,
  LIMITS,
  OPERATIONS,
  PLATFORMS,
  RUN_EVENT_STATUSES,
  SANDBOX_CODES,
  UPLOAD_CONTENT_TYPES,
} from '../../../src-shared/api';

/** docs/contract.md, the project's own reference of the service, against the contract as the code declares it. */
const DOC = readFileSync(join(process.cwd(), 'docs', 'contract.md'), 'utf8');

function section(name: string): string {
  const m = DOC.match(new RegExp(`<!-- contract:${name} -->\\n([\\s\\S]*?)\\n<!-- /contract:${name} -->`));
  if (!m) throw new Error(`docs/contract.md has no contract:${name} section`);
  return m[1]!;
}

/** The rows of the one table of a section, header and rule left out, cells trimmed. */
function rows(name: string): string[][] {
  return section(name)
    .split('\n')
    .filter((l) => l.startsWith('|'))
    .slice(2)
    .map((l) =>
      l
        .slice(1, -1)
        .split('|')
        .map((c) => c.trim()),
    );
}

const unquote = (cell: string): string => cell.replace(/^`|`$/g, '');

describe('docs/contract.md matches src-shared/api', () => {
  it('lists every operation once, with its method, path, credential, retry policy and status', () => {
    const documented = rows('operations').map(([name, request, credential, retry, status, what]) => ({
      name,
      request: unquote(request!),
      credential,
      retry,
      status: Number(status),
      what,
    }));
    const declared = Object.entries(OPERATIONS).map(([name, op]) => ({
      name,
      request: `${op.method} ${op.path}`,
      credential: op.credential,
      retry: op.retry,
      status: op.status,
    }));
    expect(documented.map(({ what: _what, ...rest }) => rest)).toEqual(declared);
    expect(documented.filter((d) => !d.what)).toEqual([]);
  });

  it('gives every limit its value', () => {
    const format = (v: unknown): string =>
      typeof v === 'object' && v !== null
        ? Object.entries(v)
            .map(([k, n]) => `${k}=${String(n)}`)
            .join(', ')
        : String(v);
    const documented = rows('limits').map(([key, value]) => [unquote(key!), value]);
    expect(documented).toEqual(Object.entries(LIMITS).map(([key, value]) => [key, format(value)]));
  });

  it('lists every named error code once', () => {
    const documented = rows('errors').map(([code, status]) => [unquote(code!), Number(status)]);
    expect(documented.map(([code]) => code)).toEqual([...ERROR_CODES]);
    for (const [, status] of documented) expect([400, 401, 403, 404, 409, 429]).toContain(status);
  });

  it('names the same values', () => {
    const lists = Object.fromEntries(
      section('values')
        .split('\n')
        .map((l) => l.match(/^- ([^:]+): (.+)$/))
        .filter((m): m is RegExpMatchArray => m !== null)
        .map((m) => [m[1], [...m[2]!.matchAll(/`([^`]+)`/g)].map((v) => v[1])]),
    );
    expect(lists).toEqual({
      Platform: [...PLATFORMS],
      'Delivery status': [...DELIVERY_STATUSES],
      'Article status': [...ARTICLE_STATUSES],
      'Article destination': [...ARTICLE_DESTINATIONS],
      'Upload content type': [...UPLOAD_CONTENT_TYPES],
      'Run event status': [...RUN_EVENT_STATUSES],
    });
  });

  it('docs/sandbox.md lists every code the sandbox adds', () => {
    const sandbox = readFileSync(join(process.cwd(), 'docs', 'sandbox.md'), 'utf8');
    expect(SANDBOX_CODES.filter((c) => !sandbox.includes(`\`${c}\``))).toEqual([]);
  });
});
