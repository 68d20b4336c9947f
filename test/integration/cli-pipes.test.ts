import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leafCommands } from '../helpers/cli-tree';
import { IDS, demoFixture, startTestSandbox, type TestSandbox } from '../helpers/sandbox';
import { scaled } from '../helpers/timeouts';

/**
 * `postdesk <command> | head -1`: the reader goes away before the command has written. Every command that prints
 * what it reads (derived from the program tree) ends quietly with exit 0, as git and ls do: no stack trace, no
 * "write EPIPE". The real binary in its own process against a real sandbox over HTTP.
 */
const BIN = resolve(import.meta.dirname, '../../bin/postdesk.js');
let sb: TestSandbox;
let dir: string;
let postId: string;

/** The reading commands: what lists, shows or exports. */
const READS = /(^| )(list|show|status)$|^(analytics|accounts)$|^export /;
/** Not run here, and why. */
const SKIP: Record<string, string> = {
  'executor service status': 'asks the OS service manager (systemd, launchd), not the service',
};
/** Values for required arguments. */
const ARGS = (path: string): string[] =>
  ({
    'posts show': [postId],
    'skills show': ['test-skill'],
    'runs show': [],
    'bulk status': [],
  })[path] ?? [];

beforeAll(async () => {
  sb = await startTestSandbox(demoFixture());
  dir = mkdtempSync(join(tmpdir(), 'pd-cli-pipes-'));
  const res = await sb.api('POST', '/api/cli/posts', {
    body: {
      caption: 'piped',
      targets: [{ platform: 'x', social_account_id: IDS.accounts.x }],
      scheduled_at: '2035-01-01T09:00:00Z',
    },
  });
  postId = res.body.post.id as string;
}, scaled(60_000));

afterAll(async () => {
  await sb?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the command; with `closed`, its stdout is read by nobody: the read end is closed before it prints. */
function piped(
  args: string[],
  closed = true,
): Promise<{ code: number | null; signal: string | null; err: string }> {
  const child = spawn(process.execPath, [BIN, '--base-url', sb.url, ...args], {
    env: {
      PATH: process.env.PATH,
      POSTDESK_DATA_DIR: join(dir, 'data'),
      POSTDESK_API_KEY: sb.apiKey,
      POSTDESK_HTTP_RETRIES: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (closed) child.stdout.destroy();
  else child.stdout.resume();
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((r) => child.on('close', (code, signal) => r({ code, signal, err })));
}

describe('a reader that closes early', () => {
  it(
    'ends every reading command quietly with exit 0',
    async () => {
      const reads = (await leafCommands())
        .map((l) => l.path.join(' '))
        .filter((p) => READS.test(p) && !(p in SKIP));
      const named = [
        'analytics',
        'posts show',
        'posts list',
        'queue show',
        'status',
        'skills show',
        'export posts',
      ];
      for (const p of named) {
        expect(reads).toContain(p);
        const run = await piped([...p.split(' '), ...ARGS(p)]);
        expect({ command: p, code: run.code }).toEqual({ command: p, code: 0 });
      }
      // Runs that need an id of something this data directory never made answer "not found" before printing.
      const runnable = reads.filter((p) => p !== 'runs show' && p !== 'bulk status' && !named.includes(p));
      for (const p of runnable) {
        const args = [...p.split(' '), ...ARGS(p)];
        // A command that fails read in full (`executor status` with no daemon: 1) may still say so when piped.
        const full = await piped(args, false);
        const run = await piped(args);
        expect({ command: p, code: run.code, signal: run.signal }).toEqual({
          command: p,
          code: full.code === 0 ? 0 : expect.toBeOneOf([0, full.code]),
          signal: null,
        });
        expect(run.err, p).not.toMatch(/EPIPE|Unhandled 'error' event|\n\s+at /);
      }
    },
    scaled(120_000),
  );
});
