/**
 * `npx tsx bench/table.ts QUIET.json STRESSED.json …`: the runs saved by `npm run bench -- --check --save FILE
 * --label NAME`, side by side as the table of docs/bench.md (bench/report.ts), printed for pasting.
 */
import { readFileSync } from 'node:fs';
import { SavedRun, combinedTable } from './report';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error(
    'usage: npx tsx bench/table.ts RUN.json [RUN.json …] (saved by npm run bench -- --check --save FILE)',
  );
  process.exit(2);
}
const runs = files.map((f) => {
  const parsed = SavedRun.safeParse(JSON.parse(readFileSync(f, 'utf8')));
  if (!parsed.success) {
    console.error(`${f}: not a run saved by npm run bench -- --save (${parsed.error.issues[0]?.message})`);
    process.exit(2);
  }
  return parsed.data;
});
console.log(combinedTable(runs));
