import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';

/** sandbox-control.md, Starting it: `--host`, the listening line, and SIGINT with a request in flight. */

const ROOT = resolve(__dirname, '../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const SEED = join(ROOT, 'test/fixtures/sandbox/example-seed.json');

it('SIGINT finishes the request in flight, then exits 0', async () => {
  const key = (JSON.parse(readFileSync(SEED, 'utf8')) as { owners: { api_keys: { key: string }[] }[] })
    .owners[0]!.api_keys[0]!.key;
  const child = spawn(TSX, ['src-sandbox/main.ts', '--host', '127.0.0.1', '--port', '0', '--seed', SEED], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const firstLine = await new Promise<string>((done, fail) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`no listening line: ${out}`)), 20_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) {
        clearTimeout(timer);
        done(out.split('\n')[0]!);
      }
    });
  });
  const url = /^sandbox listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(firstLine)?.[1];
  expect(url, firstLine).toBeDefined();

  const faults = await fetch(`${url}/_sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ latency_ms: 700 }),
  });
  expect(await faults.json()).toEqual({ latency_ms: 700 });
  // Signal only once the whole request has left this process, then give the server a moment to take it up: a
  // fixed sleep from the start raced the server's accept on a loaded machine.
  const req = request(`${url}/api/cli/accounts`, { headers: { authorization: `Bearer ${key}` } });
  const inFlight = new Promise<{ status: number; body: string }>((done, fail) => {
    req.on('response', (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => done({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', fail);
  });
  await new Promise<void>((done) => req.end(done));
  await new Promise((r) => setTimeout(r, 250));
  child.kill('SIGINT');
  const res = await inFlight;
  expect(res.status).toBe(200);
  expect((JSON.parse(res.body) as { accounts: unknown[] }).accounts.length).toBeGreaterThan(0);
  // A client keeping its connection alive must not hold the sandbox open.
  const timeout = new Promise<string>((r) => setTimeout(() => r('still running after 5 s'), 5_000).unref());
  const code = await Promise.race([exited, timeout]);
  if (code !== 0) child.kill('SIGKILL');
  expect(code).toBe(0);
});
