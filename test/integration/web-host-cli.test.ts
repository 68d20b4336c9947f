import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { sessionSecretFor } from '../helpers/web-host';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * `postdesk web --sandbox --port 0 --no-open` as a process: the command as commander parses it (with the
 * global --sandbox), what it prints, and a clean stop on SIGTERM. The program here registers only `web`
 * on the CLI's own deps, so this runs whether or not the command list includes it yet.
 */
const PROGRAM = `
import { Command, Option } from 'commander';
import { createDeps } from './src-main/cli/context.ts';
import { registerWebCommand } from './src-main/cli/commands/web.ts';
const io = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env };
const { deps, state } = createDeps(io);
const program = new Command('postdesk').addOption(new Option('--sandbox'));
registerWebCommand(program, deps);
await program.parseAsync(process.argv.slice(1), { from: 'user' });
await state.close();
// No process.exit: the process ends only when every timer and socket the host made is gone.
`;

let child: ChildProcess | null = null;
let dataDir = '';

afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('postdesk web, the command', () => {
  it('prints the sandbox, its demo key and a one-time link; serves the bridge; stops on SIGTERM', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'postdesk-web-cli-'));
    const c = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        PROGRAM,
        'web',
        '--sandbox',
        '--port',
        '0',
        '--no-open',
      ],
      {
        cwd: ROOT,
        env: { ...process.env, POSTDESK_DATA_DIR: dataDir, NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child = c;
    let out = '';
    let err = '';
    c.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no address printed:\n${out}\n${err}`)), 40_000);
      c.once('exit', (code) => reject(new Error(`exited ${code}:\n${out}\n${err}`)));
      c.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /^open: (\S+)$/m.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
    });
    expect(out).toMatch(/^sandbox listening on http:\/\/127\.0\.0\.1:\d+$/m);
    expect(out).toMatch(/^api key: \S+$/m);
    expect(out).toMatch(/^postdesk web listening on http:\/\/127\.0\.0\.1:\d+$/m);
    const { origin, hash } = new URL(url);
    expect(new URLSearchParams(hash.slice(1)).get('code')).toMatch(/^[\w-]{43}$/);
    // The page's first step: its link's one-time code for the session secret.
    const secret = await sessionSecretFor(url);
    expect(out).not.toContain(secret);

    const reply = await new Promise<unknown>((resolve, reject) => {
      const ws = new WebSocket(`${origin.replace('http', 'ws')}/bridge?token=${secret}`, { origin });
      ws.on('open', () => ws.send(JSON.stringify({ t: 'invoke', id: 1, channel: 'app:info' })));
      ws.on('message', (d) => {
        resolve(JSON.parse(String(d)));
        ws.close();
      });
      ws.on('error', reject);
    });
    expect(reply).toMatchObject({ t: 'result', id: 1, result: { ok: true, value: { host: 'web' } } });

    const exit = new Promise<number | null>((resolve) => c.once('exit', (code) => resolve(code)));
    const stopping = Date.now();
    c.kill('SIGTERM');
    const code = await Promise.race([exit, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 10_000))]);
    expect(code, `still running 10 s after SIGTERM:\n${err}`).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(5_000);
  });
});
