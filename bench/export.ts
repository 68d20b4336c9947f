/**
 * `npm run bench -- export`: the posts export (delivery index → CSV/JSON file) at 10,000 deliveries, in a process of
 * its own per run so each peak RSS is that export's alone: streaming (post ids from the index, then their deliveries 500 posts per read, written as
 * they come) beside the naive baseline that builds every record and the whole text in memory first, measured in the
 * same run on the same SQLite file. Streaming at 40,000 deliveries shows the memory does not grow with the export.
 * Goals: 10,000 deliveries in under 2 s; streaming at least as fast as the naive build, format by format (CSV
 * against CSV, JSON against JSON; the goal holds the slower ratio); memory flat: at 40,000 deliveries the peak RSS
 * growth is at most 1.5× that at 10,000 (the naive export's grows with the data), and below the naive export's at
 * 10,000. The 10,000-delivery exports run in alternating rounds (POSTDESK_BENCH_ROUNDS, default 3) and are compared
 * by their medians, with each one's CPU time beside: under load one run of each said more about the machine than
 * about the export (issue #29 measured streaming slower than naive that way).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Delivery } from '../src-shared/api/posts';
import { openDeliveryIndex } from '../src-main/core/deliveries/delivery-index';
import { openStore } from '../src-main/core/store/store';
import { judge } from './goals';

const run = promisify(execFile);
const MiB = 1024 * 1024;
const WORKER = resolve(import.meta.dirname, 'export-worker.ts');
const GOAL_MS = 2_000;
/** Flat: 4× the deliveries may cost at most this much more peak growth (V8 grows its heap lazily, never by the data). */
const GOAL_FLAT_RATIO = 1.5;

/** Posts of two deliveries each (x and linkedin), a caption of a few hundred characters, a medium, times. */
function seed(file: string, scope: string, deliveries: number): void {
  const store = openStore(file);
  const index = openDeliveryIndex(store);
  const start = Date.parse('2031-01-01T00:00:00Z');
  const page: Delivery[] = [];
  const flush = () => {
    index.learn(scope, { kind: 'records', deliveries: page.splice(0) });
  };
  for (let i = 0; i < deliveries; i++) {
    const post = Math.floor(i / 2);
    const when = new Date(start + post * 3_600_000).toISOString();
    const id = (n: number) => `00000000-0000-4000-8000-${n.toString().padStart(12, '0')}`;
    page.push({
      id: id(i + 1_000_000),
      post_id: id(post),
      status: post % 3 === 0 ? 'posted' : 'scheduled',
      platform: i % 2 === 0 ? 'x' : 'linkedin',
      social_account_id: i % 2 === 0 ? id(1) : id(2),
      caption: `Post ${post}: ${'a caption with "quotes", commas and a line\nbreak '.repeat(6)}`,
      media: [{ asset_id: id(post + 500_000), url: `https://media.example/${post}.jpg` }],
      scheduled_at: when,
      published_at: post % 3 === 0 ? when : null,
      created_at: new Date(start - post * 1000).toISOString(),
      updated_at: new Date(start - post * 1000).toISOString(),
    });
    if (page.length === 1000) flush();
  }
  flush();
  store.close();
}

interface Figures {
  readonly ms: number;
  readonly records: number;
  readonly growthBytes: number;
  readonly cpuMs: number;
}

async function once(mode: string, format: string, db: string, scope: string, out: string): Promise<Figures> {
  const { stdout } = await run(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', WORKER, mode, format, db, scope, out],
    { maxBuffer: MiB },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Figures;
}

/** Rounds of the 10,000-delivery exports, alternating streaming and naive: a busy machine slows both alike. */
const ROUNDS = Number(process.env.POSTDESK_BENCH_ROUNDS) || 3;

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** The median of each figure over the rounds (records and bytes written do not vary). */
const medianOf = (runs: readonly Figures[]): Figures => ({
  ms: median(runs.map((r) => r.ms)),
  records: runs[0]!.records,
  growthBytes: median(runs.map((r) => r.growthBytes)),
  cpuMs: median(runs.map((r) => r.cpuMs)),
});

const mib = (b: number) => `${(b / MiB).toFixed(1)} MiB`;
const verdict = (ok: boolean) => (ok ? 'MET' : 'NOT MET');

export async function benchExport(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'postdesk-bench-export-'));
  try {
    const db = join(dir, 'postdesk.db');
    seed(db, 'ten', 10_000);
    seed(db, 'forty', 40_000);
    const out = (name: string) => join(dir, name);
    const lines: string[] = [];
    const runs: Record<string, Figures[]> = {};
    const configs = [
      ['stream-csv', 'streaming', 'csv', 'ten'],
      ['naive-csv', 'naive', 'csv', 'ten'],
      ['stream-json', 'streaming', 'json', 'ten'],
      ['naive-json', 'naive', 'json', 'ten'],
    ] as const;
    const loadBefore = loadavg()[0]!.toFixed(2);
    for (let r = 0; r < ROUNDS; r++) {
      // Alternate which goes first, so neither always runs right after the other's writes.
      for (const [key, mode, format, scope] of r % 2 ? [...configs].reverse() : configs) {
        (runs[key] ??= []).push(await once(mode, format, db, scope, out(`${key}.${format}`)));
      }
    }
    runs['stream-csv-40k'] = [await once('streaming', 'csv', db, 'forty', out('stream-csv-40k.csv'))];
    const results: Record<string, Figures> = {};
    for (const [key, all] of Object.entries(runs)) {
      const f = medianOf(all);
      results[key] = f;
      const format = key.includes('json') ? 'json' : 'csv';
      lines.push(
        `${key.padEnd(15)} ${String(f.records).padStart(6)} posts  ${f.ms.toFixed(0).padStart(5)} ms  CPU ${f.cpuMs.toFixed(0).padStart(5)} ms  peak RSS +${mib(f.growthBytes)}  (${mib(statSync(out(`${key}.${format}`)).size)} written)${all.length > 1 ? `  per round ${all.map((x) => x.ms.toFixed(0)).join(' ')} ms` : ''}`,
      );
    }
    console.log(
      `posts export, 10,000 deliveries (5,000 posts) unless marked 40k; medians of ${ROUNDS} alternating rounds; load average ${loadBefore} before, ${loadavg()[0]!.toFixed(2)} after (1 min):`,
    );
    for (const l of lines) console.log(`  ${l}`);
    const s = results['stream-csv'] as Figures;
    const j = results['stream-json'] as Figures;
    const big = results['stream-csv-40k'] as Figures;
    const slowest = Math.max(s.ms, j.ms);
    const growth = Math.max(s.growthBytes, j.growthBytes);
    console.log(
      `goal: 10,000 deliveries in under 2 s: ${slowest.toFixed(0)} ms (slower of CSV and JSON): ${verdict(slowest < GOAL_MS)}`,
    );
    const naive = Math.min(
      (results['naive-csv'] as Figures).growthBytes,
      (results['naive-json'] as Figures).growthBytes,
    );
    console.log(
      `goal: less memory than building it all: +${mib(growth)} streaming vs +${mib(naive)} naive (the lesser of CSV and JSON): ${verdict(growth < naive)}`,
    );
    // Format by format: streaming CSV against naive CSV, JSON against JSON; the goal holds the slower of the two.
    const vsCsv = s.ms / (results['naive-csv'] as Figures).ms;
    const vsJson = j.ms / (results['naive-json'] as Figures).ms;
    const vsNaive = Math.max(vsCsv, vsJson);
    const cpuVs = Math.max(
      s.cpuMs / (results['naive-csv'] as Figures).cpuMs,
      j.cpuMs / (results['naive-json'] as Figures).cpuMs,
    );
    console.log(
      `goal: streaming at least as fast as building it all: CSV ${vsCsv.toFixed(2)}×, JSON ${vsJson.toFixed(2)}× the naive build's time (CPU ${cpuVs.toFixed(2)}× at most): ${judge('export.stream_vs_naive_time', vsNaive)}`,
    );
    const ratio = big.growthBytes / s.growthBytes;
    console.log(
      `goal: flat memory, 4× the deliveries at most ${GOAL_FLAT_RATIO}× the peak growth: +${mib(big.growthBytes)} at 40,000 vs +${mib(s.growthBytes)} at 10,000 (${ratio.toFixed(2)}×): ${judge('export.flat_memory_ratio', ratio)}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
