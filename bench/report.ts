/**
 * The bench's verdicts as the tables of docs/bench.md, so its figures are pasted from a run, never retyped.
 * `npm run bench -- --check --markdown` prints one run's table; `--save FILE` keeps the run's verdicts and load
 * average as JSON, and `npx tsx bench/table.ts QUIET.json STRESSED.json` sets two saved runs side by side (a
 * quiet run and one beside `stress-ng --cpu 2`), one MET / NOT MET column each.
 */
import { loadavg } from 'node:os';
import { z } from 'zod';
import type { Verdict } from './goals';

export const SavedRun = z.object({
  label: z.string(),
  at: z.string(),
  /** The 1-minute load average when the run started and when it ended. */
  load: z.object({ before: z.number(), after: z.number() }),
  verdicts: z.array(
    z.object({
      id: z.string(),
      what: z.string(),
      value: z.number(),
      goal: z.string(),
      met: z.boolean(),
      failed: z.boolean(),
    }),
  ),
});
export type SavedRun = z.infer<typeof SavedRun>;

/** MET within the goal; NOT MET past it (and "past tolerance" where --check fails on it). */
const word = (v: Pick<Verdict, 'met' | 'failed'>): string =>
  v.met ? 'MET' : v.failed ? 'NOT MET (past tolerance)' : 'NOT MET (within tolerance)';

const figure = (v: Pick<Verdict, 'value'>): string =>
  Number.isFinite(v.value) ? String(Number(v.value.toFixed(2))) : 'not measured';

/** A cell's text: a `|` would end the cell early. */
const cell = (s: string): string => s.replaceAll('|', '\\|');

/** One run: a figure's id, what it measures, its goal, the figure and its verdict. */
export function markdownTable(verdicts: readonly Verdict[]): string {
  const lines = ['| figure | what | goal | value | verdict |', '|---|---|---|---|---|'];
  for (const v of verdicts)
    lines.push(`| \`${v.id}\` | ${cell(v.what)} | ${cell(v.goal)} | ${figure(v)} | ${word(v)} |`);
  return lines.join('\n');
}

/** What `--save FILE` writes: this run's verdicts, with the load it ran under. */
export function savedRun(label: string, loadBefore: number, verdicts: readonly Verdict[]): SavedRun {
  return {
    label,
    at: new Date().toISOString(),
    load: { before: loadBefore, after: loadavg()[0]! },
    verdicts: verdicts.map((v) => ({ ...v })),
  };
}

/**
 * Runs side by side: one row per figure any run judged (in the order first seen), a value and a verdict column
 * per run. A figure a run did not reach (its part failed, or was not asked for) says so rather than leaving a gap.
 */
export function combinedTable(runs: readonly SavedRun[]): string {
  const ids: string[] = [];
  const about = new Map<string, { what: string; goal: string }>();
  for (const r of runs)
    for (const v of r.verdicts)
      if (!about.has(v.id)) {
        ids.push(v.id);
        about.set(v.id, { what: v.what, goal: v.goal });
      }
  const head = runs.map(
    (r) =>
      `${cell(r.label)}: value (load ${r.load.before.toFixed(1)}–${r.load.after.toFixed(1)}) | ${cell(r.label)}`,
  );
  const lines = [
    `| figure | what | goal | ${head.join(' | ')} |`,
    `|---|---|---|${runs.map(() => '---|---|').join('')}`,
  ];
  for (const id of ids) {
    const { what, goal } = about.get(id)!;
    const cells = runs.map((r) => {
      const v = r.verdicts.find((x) => x.id === id);
      return v ? `${figure(v)} | ${word(v)}` : 'not run | NOT MET (not run)';
    });
    lines.push(`| \`${id}\` | ${cell(what)} | ${cell(goal)} | ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}
