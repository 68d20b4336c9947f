/**
 * `npm run bench [part…] [--check] [--goals FILE]`: runs each benchmark part, each printing its figures beside a
 * baseline measured in the same run. Parts: sandbox, media, bulk, executor, ui, local, cli, export, fleet. With no
 * part, all of them but fleet (a machine of its own at full size: bench/fleet.ts). `--check` then compares every figure with bench/goals.json (or FILE) and exits 1 when one misses
 * its goal by more than the goal's tolerance.
 */
import { verdicts } from './goals';

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
const goalsAt = argv.indexOf('--goals');
if (goalsAt >= 0) {
  const file = argv[goalsAt + 1];
  if (!file || file.startsWith('--')) {
    console.error('--goals needs a file: npm run bench -- --check --goals FILE');
    process.exit(2);
  }
  process.env.POSTDESK_BENCH_GOALS = file;
}
const asked = argv.filter((a, i) => a !== '--check' && a !== '--goals' && argv[i - 1] !== '--goals');
const unknown = asked.filter((a) => !isPart(a));
if (unknown.length > 0) {
  console.error(`unknown bench part(s): ${unknown.join(', ')}; choose from ${Object.keys(PARTS).join(', ')}`);
  process.exit(2);
}
const parts =
  asked.length > 0 ? asked.filter(isPart) : (Object.keys(PARTS) as Part[]).filter((p) => p !== 'fleet');
let failed = 0;
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
process.exit(failed > 0 ? 1 : 0);
export {};
