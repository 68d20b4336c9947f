import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src-sandbox/app';
import { FIXTURE_NOW, TEST_KEYS, demoFixture } from '../helpers/sandbox';

/**
 * `POST /_sandbox/clock` must not accept a move that leaves the clock unusable (past the largest date
 * a timestamp can hold, where every request would answer 500), and a `--data` store must never keep
 * or load such a clock.
 */

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const dataDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'sandbox-clock-'));
  dirs.push(d);
  return d;
};

const start = (dir: string): Promise<RunningSandbox> =>
  startSandbox({ port: 0, dataDir: dir, fixture: demoFixture(), quiet: true });

const post = (sb: RunningSandbox, path: string, body: unknown) =>
  fetch(`${sb.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function answersNormally(sb: RunningSandbox): Promise<string> {
  const accounts = await fetch(`${sb.url}/api/cli/accounts`, {
    headers: { authorization: `Bearer ${TEST_KEYS.a}` },
  });
  expect(accounts.status).toBe(200);
  const clock = await fetch(`${sb.url}/_sandbox/clock`);
  expect(clock.status).toBe(200);
  const { now } = (await clock.json()) as { now: string };
  expect(now).toMatch(/^\d{4}-\d\d-\d\dT/);
  return now;
}

describe('moving the clock out of range', () => {
  it('refuses advance_ms past the largest date with 400 and keeps the clock and every route working', async () => {
    const sb = await start(dataDir());
    try {
      for (const advance_ms of [8.64e15, Number.MAX_SAFE_INTEGER, 1e20, 1e300]) {
        const res = await post(sb, '/_sandbox/clock', { advance_ms });
        expect(res.status, `advance_ms ${advance_ms}`).toBe(400);
        expect(await res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
        expect(await answersNormally(sb)).toBe(FIXTURE_NOW);
      }
      const setFar = await post(sb, '/_sandbox/clock', { now: '9999-12-31T23:59:59-12:00' });
      expect(setFar.status).toBe(400);
      expect(await answersNormally(sb)).toBe(FIXTURE_NOW);
      const resetFar = await post(sb, '/_sandbox/reset', demoFixture({ now: '9999-12-31T23:59:59-12:00' }));
      expect(resetFar.status).toBe(400);
      expect(await answersNormally(sb)).toBe(FIXTURE_NOW);
      // An ordinary long jump still works.
      expect((await post(sb, '/_sandbox/clock', { advance_ms: 100 * 365 * 86_400_000 })).status).toBe(200);
    } finally {
      await sb.close();
    }
  });

  it('a refused move is not persisted: the --data store restarts with a working clock', async () => {
    const dir = dataDir();
    const first = await start(dir);
    const moved = await post(first, '/_sandbox/clock', { advance_ms: 8.64e15 });
    await first.close();
    const second = await start(dir);
    try {
      expect(await answersNormally(second)).toBe(FIXTURE_NOW);
      expect(moved.status).toBe(400);
    } finally {
      await second.close();
    }
  });

  it('a store holding an invalid clock starts anyway and follows real time', async () => {
    for (const stored of ['1e300', '8640000000000001', 'not a number', '-1e20']) {
      const dir = dataDir();
      await (await start(dir)).close();
      const db = new Database(join(dir, 'sandbox.db'));
      db.prepare(`UPDATE meta SET value = ? WHERE key = 'clock_ms'`).run(stored);
      expect(db.prepare(`SELECT value FROM meta WHERE key = 'clock_ms'`).get()).toEqual({ value: stored });
      db.close();
      const sb = await start(dir);
      try {
        const now = await answersNormally(sb);
        expect(Math.abs(Date.parse(now) - Date.now()), stored).toBeLessThan(60_000);
      } finally {
        await sb.close();
      }
    }
  });
});
