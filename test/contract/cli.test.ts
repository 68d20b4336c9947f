import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startSandbox } from '../../src-sandbox/app';
import {
  DEMO_ACCOUNTS,
  DEMO_API_KEY,
  demoFixture as builtInDemoFixture,
} from '../../src-sandbox/demo-fixture';
import { TEST_KEYS, demoFixture as testFixture, jsonOf } from '../helpers/sandbox';
import { scaled } from '../helpers/timeouts';

const ROOT = resolve(__dirname, '../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'sandbox-cli-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

interface Started {
  child: ChildProcess;
  lines: string[];
  url: string;
}

/** Spawns `tsx src-sandbox/main.ts ...` and waits for the listening line (and the key line when expected). */
async function startCli(args: string[], expectKeyLine: boolean): Promise<Started> {
  const child = spawn(TSX, ['src-sandbox/main.ts', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let buffered = '';
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  await new Promise<void>((done, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`no listening line; stdout=${JSON.stringify(lines)} stderr=${stderr}`)),
      scaled(20_000),
    );
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const parts = buffered.split('\n');
      buffered = parts.pop()!;
      lines.push(...parts);
      if (lines.length >= (expectKeyLine ? 2 : 1)) {
        clearTimeout(timer);
        done();
      }
    });
    child.once('exit', (code) => fail(new Error(`exited ${code}: ${stderr}`)));
  });
  const url = /^sandbox listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(lines[0] ?? '')?.[1];
  if (!url) throw new Error(`unexpected first line ${JSON.stringify(lines[0])}`);
  return { child, lines, url };
}

const stop = (child: ChildProcess): Promise<number | null> =>
  new Promise((done) => {
    child.once('exit', (code) => done(code));
    child.kill('SIGTERM');
  });

const authed = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });

it('prints the exact lines, keeps everything across a --data restart, and exits 0 on SIGTERM', async () => {
  const data = tempDir();
  const first = await startCli(['--data', data, '--port', '0'], true);
  expect(first.lines[0]).toMatch(/^sandbox listening on http:\/\/127\.0\.0\.1:\d+$/);
  expect(first.lines[1]).toBe(`api key: ${DEMO_API_KEY}`);
  const h = authed(DEMO_API_KEY);

  const accounts = await jsonOf(fetch(`${first.url}/api/cli/accounts`, { headers: h }));
  expect(accounts.accounts).toHaveLength(5);
  const post = await fetch(`${first.url}/api/cli/posts`, {
    method: 'POST',
    headers: h,
    body: JSON.stringify({
      caption: 'survives',
      scheduled_at: '2099-01-01T00:00:00Z',
      targets: [{ social_account_id: DEMO_ACCOUNTS.x, platform: 'x' }],
    }),
  });
  expect(post.status).toBe(201);
  const bytes = Buffer.from('persisted image bytes');
  const reservation = await jsonOf(
    await fetch(`${first.url}/api/cli/media/uploads`, {
      method: 'POST',
      headers: h,
      body: JSON.stringify({
        content_type: 'image/jpeg',
        content_length: bytes.length,
        content_sha256: createHash('sha256').update(bytes).digest('hex'),
        content_md5: createHash('md5').update(bytes).digest('hex'),
      }),
    }),
  );
  expect(
    (await fetch(reservation.upload_url, { method: 'PUT', headers: reservation.upload_headers, body: bytes }))
      .status,
  ).toBe(200);
  const asset = await jsonOf(
    await fetch(`${first.url}/api/cli/media/uploads`, {
      method: 'PATCH',
      headers: h,
      body: JSON.stringify({ asset_id: reservation.asset_id }),
    }),
  );
  // A virtual clock survives the restart too (an hour ahead: far enough to notice, the key stays valid).
  const moved = await fetch(`${first.url}/_sandbox/clock`, {
    method: 'POST',
    headers: h,
    body: JSON.stringify({ advance_ms: 3_600_000 }),
  });
  const { now } = (await jsonOf(moved)) as { now: string };
  const before = await jsonOf(fetch(`${first.url}/_sandbox/state`));
  expect(await stop(first.child)).toBe(0);

  const second = await startCli(['--data', data, '--port', '0'], true);
  expect(second.lines[1]).toBe(`api key: ${DEMO_API_KEY}`);
  expect(await jsonOf(await fetch(`${second.url}/_sandbox/state`))).toEqual(before);
  const posts = await jsonOf(fetch(`${second.url}/api/cli/posts`, { headers: h }));
  const kept = posts.posts.filter((p: { caption: string }) => p.caption === 'survives');
  expect(kept.map((p: { status: string }) => p.status)).toEqual(['scheduled']);
  expect((await jsonOf(await fetch(`${second.url}/_sandbox/clock`))).now).toBe(now);
  const served = await fetch(asset.public_url.replace(first.url, second.url));
  expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
  const again = await jsonOf(
    await fetch(`${second.url}/api/cli/media/uploads`, {
      method: 'POST',
      headers: h,
      body: JSON.stringify({
        content_type: 'image/jpeg',
        content_length: bytes.length,
        content_sha256: createHash('sha256').update(bytes).digest('hex'),
        content_md5: createHash('md5').update(bytes).digest('hex'),
      }),
    }),
  );
  expect(again).toMatchObject({ already_uploaded: true, asset_id: reservation.asset_id });
  expect(await stop(second.child)).toBe(0);
});

it('loads --seed instead of the demo fixture and prints no key line', async () => {
  const seed = join(ROOT, 'test/fixtures/sandbox/example-seed.json');
  const fixture = JSON.parse(readFileSync(seed, 'utf8')) as {
    now: string;
    owners: { api_keys: { key: string }[] }[];
  };
  const key = fixture.owners[0]!.api_keys[0]!.key;
  const started = await startCli(['--seed', seed, '--port', '0'], false);
  // Give a stray key line the chance to appear before asserting its absence.
  await new Promise((r) => setTimeout(r, 200));
  expect(started.lines.filter((l) => l.startsWith('api key:'))).toEqual([]);
  const res = await fetch(`${started.url}/api/cli/accounts`, { headers: authed(key) });
  expect((await jsonOf(res)).accounts).toHaveLength(3);
  expect((await jsonOf(fetch(`${started.url}/_sandbox/clock`))).now).toBe(
    new Date(fixture.now).toISOString(),
  );
  expect((await fetch(`${started.url}/api/cli/accounts`, { headers: authed(DEMO_API_KEY) })).status).toBe(
    401,
  );
  expect(await stop(started.child)).toBe(0);
});

it('after a reset with another fixture, a restart on the same --data prints a key that works or no key line', async () => {
  const data = tempDir();
  const first = await startCli(['--data', data, '--port', '0'], true);
  expect(first.lines[1]).toBe(`api key: ${DEMO_API_KEY}`);
  const reset = await fetch(`${first.url}/_sandbox/reset`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(testFixture()),
  });
  expect(reset.status).toBe(200);
  expect(await stop(first.child)).toBe(0);

  const second = await startCli(['--data', data, '--port', '0'], false);
  await new Promise((r) => setTimeout(r, 200));
  expect(second.lines.filter((l) => l.startsWith('api key:'))).toEqual([]);
  expect((await fetch(`${second.url}/api/cli/accounts`, { headers: authed(TEST_KEYS.a) })).status).toBe(200);
  expect(await stop(second.child)).toBe(0);

  // In process, the same rule: the demo key is offered again once the store holds it, and only while it works.
  const withDemo = await startSandbox({ port: 0, dataDir: data, quiet: true });
  expect(withDemo.apiKey).toBeNull();
  await fetch(`${withDemo.url}/_sandbox/reset`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(builtInDemoFixture()),
  });
  await withDemo.close();
  const live = await startSandbox({ port: 0, dataDir: data, quiet: true });
  expect(live.apiKey).toBe(DEMO_API_KEY);
  expect((await fetch(`${live.url}/api/cli/accounts`, { headers: authed(DEMO_API_KEY) })).status).toBe(200);
  // A year and a day later the demo key has expired: no key is offered rather than a dead one.
  await fetch(`${live.url}/_sandbox/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advance_ms: 366 * 86_400_000 }),
  });
  await live.close();
  const expired = await startSandbox({ port: 0, dataDir: data, quiet: true });
  expect(expired.apiKey).toBeNull();
  await expired.close();
});
