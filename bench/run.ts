/**
 * `npm run bench [part…] [--check] [--goals FILE] [--markdown] [--save FILE] [--label NAME]`: runs each benchmark
 * part, each printing its figures beside a baseline measured in the same run. Parts: sandbox, media, bulk,
 * executor, ui, local, cli, export, fleet. With no part, all of them but fleet (a machine of its own at full size:
 * bench/fleet.ts). `--check` then compares every figure with bench/goals.json (or FILE) and exits 1 when one misses
 * its goal by more than the goal's tolerance. `--markdown` prints the verdicts as a table for docs/bench.md;
 * `--save FILE` keeps them with the load average (NAME labels the run, e.g. quiet or stressed) for
 * bench/table.ts, which sets saved runs side by side (bench/report.ts).
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { verdicts } from './goals';
import { markdownTable, savedRun } from './report';

const PARTS = {
  sandbox: async () => (await import('./sandbox')).benchSandbox(),
  media: async () => (await import('./media')).benchMedia(),
  bulk: async () => (await import('./bulk')).benchBulk(),
  executor: async () => (await import('./executor')).benchExecutor(),
  ui: async () => (await import('./ui')).benchUi(),
  local: async () => (await import('./local')).benchLocal(),
  cli: async () => (await import('./cli')).benchCli(),
  export: async () => (await import('./export')).benchExport(),
  fleet: async () => (await import('./fleet')).benchFleet(),
} as const;

type Part = keyof typeof PARTS;
const isPart = (s: string): s is Part => Object.hasOwn(PARTS, s);

const argv = process.argv.slice(2);
const check = argv.includes('--check');
const markdown = argv.includes('--markdown');
/** An option's value (`--goals FILE`): absent, or exits 2 when the option is given without one. */
const valueOf = (option: string, what: string): string | undefined => {
  const at = argv.indexOf(option);
  if (at < 0) return undefined;
  const value = argv[at + 1];
  if (!value || value.startsWith('--')) {
    console.error(`${option} needs ${what}: npm run bench -- --check ${option} ${what.toUpperCase()}`);
    process.exit(2);
  }
  return value;
};
const goalsFile = valueOf('--goals', 'a file');
if (goalsFile) process.env.POSTDESK_BENCH_GOALS = goalsFile;
const saveFile = valueOf('--save', 'a file');
const label = valueOf('--label', 'a name') ?? 'run';
const WITH_VALUE = new Set(['--goals', '--save', '--label']);
const FLAGS = new Set(['--check', '--markdown', ...WITH_VALUE]);
const asked = argv.filter((a, i) => !FLAGS.has(a) && !WITH_VALUE.has(argv[i - 1] ?? ''));
const unknown = asked.filter((a) => !isPart(a));
if (unknown.length > 0) {
  console.error(`unknown bench part(s): ${unknown.join(', ')}; choose from ${Object.keys(PARTS).join(', ')}`);
  process.exit(2);
}
const parts =
  asked.length > 0 ? asked.filter(isPart) : (Object.keys(PARTS) as Part[]).filter((p) => p !== 'fleet');
let failed = 0;
const loadBefore = loadavg()[0]!;
for (const part of parts) {
  console.log(`\n=== bench: ${part} ===`);
  try {
    await PARTS[part]();
  } catch (err) {
    failed += 1;
    console.error(`bench ${part} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}
if (check) {
  const all = verdicts();
  const missed = all.filter((v) => v.failed);
  console.log(`\n=== bench --check: ${all.length} figure(s) against their goals ===`);
  for (const v of all) {
    const word = v.met ? 'MET' : v.failed ? 'MISSED' : 'within tolerance';
    console.log(
      `  ${v.id.padEnd(28)} ${v.value.toFixed(2).padStart(8)}  goal ${v.goal.padEnd(9)} ${word}  (${v.what})`,
    );
  }
  if (all.length === 0) console.log('  no figure was judged: the parts that ran have no goal');
  if (missed.length > 0) {
    console.error(
      `bench --check: ${missed.length} goal(s) missed past tolerance: ${missed.map((v) => v.id).join(', ')}`,
    );
    failed += 1;
  }
}
if (markdown) {
  console.log(
    `\n=== bench --markdown (${label}; load average ${loadBefore.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after) ===`,
  );
  console.log(markdownTable(verdicts()));
}
if (saveFile)
  writeFileSync(saveFile, `${JSON.stringify(savedRun(label, loadBefore, verdicts()), null, 2)}\n`);
process.exit(failed > 0 ? 1 : 0);
export {};
