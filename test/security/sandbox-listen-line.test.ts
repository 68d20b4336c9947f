import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { afterEach, expect, it } from 'vitest';

/**
 * The listening line is how a person learns where the sandbox (and its unauthenticated control API
 * surface) can be reached. With `--host 0.0.0.0` it must say so, not claim loopback only.
 */

const ROOT = resolve(__dirname, '../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');
let child: ChildProcess | null = null;

afterEach(async () => {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((done) => child!.once('exit', done));
  child.kill('SIGTERM');
  await exited;
  child = null;
});

/** Starts the CLI and reads its first `count` stdout lines. */
async function linesOf(args: string[], count: number): Promise<string[]> {
  child = spawn(TSX, ['src-sandbox/main.ts', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  return new Promise<string[]>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`no listening lines: ${out} ${err}`)), 20_000);
    child!.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const lines = out.split('\n');
      if (lines.length > count) {
        clearTimeout(timer);
        done(lines.slice(0, count));
      }
    });
    child!.once('exit', (code) => fail(new Error(`exited ${code}: ${err}`)));
  });
}

it('names the wildcard address it is bound to with --host 0.0.0.0, for the alias port too, and answers there', async () => {
  const lines = await linesOf(['--host', '0.0.0.0', '--port', '0', '--alias-port', '0'], 3);
  const port = /^sandbox listening on http:\/\/0\.0\.0\.0:(\d+)$/.exec(lines[0]!)?.[1];
  expect(port, lines[0]).toBeDefined();
  expect(lines[1]).toMatch(/^api key: /);
  const aliasPort = /^alias listening on http:\/\/0\.0\.0\.0:(\d+)$/.exec(lines[2]!)?.[1];
  expect(aliasPort, lines[2]).toBeDefined();
  for (const p of [port, aliasPort])
    expect((await fetch(`http://127.0.0.1:${p}/api/skills`)).status).toBe(200);
});

it('still names 127.0.0.1 by default', async () => {
  const [line] = await linesOf(['--port', '0'], 1);
  expect(line).toMatch(/^sandbox listening on http:\/\/127\.0\.0\.1:\d+$/);
});
