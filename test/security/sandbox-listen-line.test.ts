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

async function firstLine(args: string[]): Promise<string> {
  child = spawn(TSX, ['src-sandbox/main.ts', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  return new Promise<string>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`no listening line: ${out} ${err}`)), 20_000);
    child!.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) {
        clearTimeout(timer);
        done(out.split('\n')[0]!);
      }
    });
    child!.once('exit', (code) => fail(new Error(`exited ${code}: ${err}`)));
  });
}

it('names the wildcard address it is bound to with --host 0.0.0.0, and answers there', async () => {
  const line = await firstLine(['--host', '0.0.0.0', '--port', '0']);
  const port = /^sandbox listening on http:\/\/0\.0\.0\.0:(\d+)$/.exec(line)?.[1];
  expect(port, line).toBeDefined();
  const res = await fetch(`http://127.0.0.1:${port}/api/skills`);
  expect(res.status).toBe(200);
});

it('still names 127.0.0.1 by default', async () => {
  const line = await firstLine(['--port', '0']);
  expect(line).toMatch(/^sandbox listening on http:\/\/127\.0\.0\.1:\d+$/);
});
