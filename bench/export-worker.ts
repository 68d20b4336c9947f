/**
 * One export of bench/export.ts, in a process of its own so its memory is its own: `streaming` pages through the
 * delivery index and writes as it goes (what Postdesk does); `naive` reads every delivery, builds every record
 * and the whole text in memory, then writes it (the baseline). Prints one JSON line of figures.
 */
import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { stringify } from 'csv-stringify/sync';
import type { Delivery } from '../src-shared/api/posts';
import { openDeliveryIndex } from '../src-main/core/deliveries/delivery-index';
import { indexPosts } from '../src-main/core/export/export-sources';
import { POST_EXPORT_COLUMNS, postRecord, postRecords } from '../src-main/core/export/post-records';
import { writeExport, type ExportFormat } from '../src-main/core/export/write-export';
import { openStore } from '../src-main/core/store/store';

const [mode, format, dbFile, scope, outFile] = process.argv.slice(2) as [
  'streaming' | 'naive',
  ExportFormat,
  string,
  string,
  string,
];
const zone = 'Europe/Paris';
const store = openStore(dbFile);
const index = openDeliveryIndex(store);
const columns = POST_EXPORT_COLUMNS;

async function streaming(): Promise<number> {
  const out = createWriteStream(outFile, { mode: 0o600 });
  return writeExport(postRecords(indexPosts(index, { scope }), { zone, format }), { format, columns, out });
}

async function naive(): Promise<number> {
  const all = index.queryDeliveries({ scope, limit: 10_000 }).items;
  const byPost = new Map<string, Delivery[]>();
  for (const d of all) byPost.set(d.post_id, [...(byPost.get(d.post_id) ?? []), d]);
  const records = [...byPost.values()].map((ds) => postRecord(ds, zone, format));
  const text =
    format === 'json'
      ? JSON.stringify(records)
      : stringify(
          records.map((r) => columns.map((c) => r[c] ?? '')),
          { header: true, columns: [...columns], bom: true, quoted_string: true },
        );
  await writeFile(outFile, text, { mode: 0o600 });
  return records.length;
}

// Warm: modules loaded, statements prepared, a page read; then the collector settles before the start line.
index.queryDeliveries({ scope, limit: 10 });
globalThis.gc?.();
const before = process.memoryUsage.rss();
let peak = before;
const sample = () => (peak = Math.max(peak, process.memoryUsage.rss()));
const timer = setInterval(sample, 2);
const cpu0 = process.cpuUsage();
const started = performance.now();
const records = await (mode === 'streaming' ? streaming() : naive());
const ms = performance.now() - started;
const cpu = process.cpuUsage(cpu0);
sample();
clearInterval(timer);
store.close();
process.stdout.write(
  `${JSON.stringify({ ms, records, growthBytes: peak - before, peakBytes: peak, cpuMs: (cpu.user + cpu.system) / 1000 })}\n`,
);
