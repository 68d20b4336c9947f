/**
 * Local reads, no network:
 * 1. The delivery index at 10,000 rows: a filtered page and a deep page (each with its total), beside reading every
 *    row and filtering, sorting and paging in JS, as a screen without the index would, on the same SQLite file.
 * 2. The MP4 box walk (`readMp4Layout`) on a 230 MiB file, beside `ffprobe -show_format` of the same file and a plain
 *    open + stat + close of it (the floor).
 * Everything in the same run, in a temp dir removed afterwards.
 */
import { execFile } from 'node:child_process';
import { open, readFile } from 'node:fs/promises';
import { mkdtempSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Delivery } from '../src-shared/api/posts';
import { openDeliveryIndex } from '../src-main/core/deliveries/delivery-index';
import { readMp4Layout } from '../src-main/core/media/mp4-boxes';
import { openStore } from '../src-main/core/store/store';
import { findTool } from '../src-main/core/media/tools';
import { writeTinyClip } from './tiny-clip';
import { timeRounds, timeRoundsAsync } from './measure';

const run = promisify(execFile);
const ROWS = 10_000;
const ROUNDS = 20;
const MiB = 1024 * 1024;

const STATUSES = ['draft', 'scheduled', 'retry_scheduled', 'posted', 'failed'] as const;
const PLATFORMS = ['tiktok', 'instagram', 'linkedin', 'x'] as const;
const T0 = Date.parse('2030-01-01T00:00:00.000Z');

/** Delivery n, as in the index's unit test: created n minutes after T0, so the highest n is the newest. */
function delivery(n: number): Delivery {
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    id: `d-${n}`,
    post_id: `p-${Math.floor(n / 2)}`,
    status: STATUSES[n % STATUSES.length]!,
    platform: PLATFORMS[n % PLATFORMS.length]!,
    social_account_id: `acc-${n % PLATFORMS.length}`,
    caption: `caption ${n}`,
    scheduled_at: iso(T0 + (ROWS - n) * 60_000),
    published_at: null,
    last_error: null,
    created_at: iso(T0 + n * 60_000),
    updated_at: iso(T0 + n * 60_000),
  };
}

type Page = { readonly items: readonly Delivery[]; readonly total: number };

function benchDeliveryIndex(dir: string): void {
  const store = openStore(join(dir, 'postdesk.db'));
  try {
    const index = openDeliveryIndex(store);
    const newestFirst = Array.from({ length: ROWS }, (_, n) => delivery(ROWS - 1 - n));
    for (let i = 0; i < ROWS; i += 100) {
      index.learn('svc', { kind: 'records', deliveries: newestFirst.slice(i, i + 100) });
    }
    const filtered = { scope: 'svc', status: 'scheduled', platform: 'x', offset: 400, limit: 100 } as const;
    const deep = { scope: 'svc', offset: 9_800, limit: 200 } as const;

    // The baseline: every row read and parsed, then filtered, sorted and paged in JS.
    const all = store.db.prepare('SELECT raw FROM deliveries WHERE scope = ?');
    const scan = (keep: (d: Delivery) => boolean, offset: number, limit: number) => {
      const rows = (all.all('svc') as { raw: string }[])
        .map((r) => JSON.parse(r.raw) as Delivery)
        .filter(keep);
      rows.sort((a, b) => b.created_at.localeCompare(a.created_at));
      return { items: rows.slice(offset, offset + limit), total: rows.length };
    };
    const scanFiltered = () => scan((d) => d.status === 'scheduled' && d.platform === 'x', 400, 100);
    const scanDeep = () => scan(() => true, 9_800, 200);

    // Same answers, or the comparison means nothing.
    const same = (a: Page, b: Page) =>
      a.total === b.total && a.items.map((d) => d.id).join() === b.items.map((d) => d.id).join();
    if (
      !same(index.queryDeliveries(filtered), scanFiltered()) ||
      !same(index.queryDeliveries(deep), scanDeep())
    ) {
      throw new Error('the index and the full scan disagree');
    }

    const rows: [string, number][] = [
      ['full scan, filtered page (baseline)', timeRounds(ROUNDS, scanFiltered)],
      ['full scan, deep page (baseline)', timeRounds(ROUNDS, scanDeep)],
      ['index: status + platform, offset 400', timeRounds(ROUNDS, () => index.queryDeliveries(filtered))],
      ['index: offset 9,800, 200 rows', timeRounds(ROUNDS, () => index.queryDeliveries(deep))],
    ];
    console.log(`delivery index, ${ROWS.toLocaleString('en')} rows, median of ${ROUNDS} (page + total):`);
    for (const [name, ms] of rows) console.log(`  ${name.padEnd(38)} ${ms.toFixed(2).padStart(8)} ms`);
    const pair = rows[2]![1] + rows[3]![1];
    const base = rows[0]![1] + rows[1]![1];
    console.log(
      `  both index queries: ${pair.toFixed(2)} ms, ${(base / pair).toFixed(0)}x faster than the scans (goal < 25 ms) ${pair < 25 ? 'MET' : 'NOT MET'}`,
    );
  } finally {
    store.close();
  }
}

async function benchMp4Layout(dir: string): Promise<void> {
  const file = join(dir, 'big.mp4');
  // A real 1-second MP4 padded to 230 MiB, as the media fixtures make it: the walk must skip, not read, the rest.
  await writeTinyClip(file);
  truncateSync(file, Math.round(230.5 * MiB));
  const layout = await readMp4Layout(file);
  if (!layout.hasMoov || layout.truncated) throw new Error('the padded MP4 did not read as whole');
  // One plain read of the whole file, so every contender finds it in the page cache.
  await readFile(file);

  const ffprobe = findTool('ffprobe').path;
  const rows: [string, number][] = [
    [
      'open + stat + close (floor)',
      await timeRoundsAsync(ROUNDS, async () => {
        const fh = await open(file);
        await fh.stat();
        await fh.close();
      }),
    ],
    [
      'ffprobe -show_format (baseline)',
      await timeRoundsAsync(5, () => run(ffprobe, ['-v', 'error', '-show_format', file])),
    ],
    ['readMp4Layout', await timeRoundsAsync(ROUNDS, () => readMp4Layout(file))],
  ];
  console.log('MP4 box walk of a 230 MiB file, median:');
  for (const [name, ms] of rows) console.log(`  ${name.padEnd(38)} ${ms.toFixed(2).padStart(8)} ms`);
  const ours = rows[2]![1];
  console.log(
    `  readMp4Layout / ffprobe: ${(ours / rows[1]![1]).toFixed(3)}x (goal < 500 ms) ${ours < 500 ? 'MET' : 'NOT MET'}`,
  );
}

export async function benchLocal(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'postdesk-bench-local-'));
  try {
    benchDeliveryIndex(dir);
    await benchMp4Layout(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
