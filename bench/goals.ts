/**
 * The bench's goals, declared once in bench/goals.json, and the figures measured against them in this run.
 * Each part calls `judge(id, value)` where it prints a goal line, so the line and `--check` read the same
 * number; `run.ts --check` then fails on any figure that misses its goal by more than the goal's tolerance.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';

const Goal = z.union([
  z.strictObject({
    what: z.string(),
    // 0 for counts that must be none (duplicated runs): any figure above it misses, whatever the tolerance.
    at_most: z.number().nonnegative(),
    tolerance: z.number().min(0).max(1),
    unit: z.string(),
  }),
  z.strictObject({
    what: z.string(),
    at_least: z.number().positive(),
    tolerance: z.number().min(0).max(1),
    unit: z.string(),
  }),
]);
type Goal = z.infer<typeof Goal>;
const GoalsFile = z.object({ $comment: z.string().optional(), goals: z.record(z.string(), Goal) });

const DEFAULT_FILE = new URL('./goals.json', import.meta.url);

/** The goals file: `--goals FILE` (or POSTDESK_BENCH_GOALS) replaces the committed one, for the check's test. */
export function loadGoals(
  file: string | URL = process.env.POSTDESK_BENCH_GOALS || DEFAULT_FILE,
): Map<string, Goal> {
  const parsed = GoalsFile.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success)
    throw new Error(`bench goals file ${String(file)}: ${parsed.error.issues[0]?.message}`);
  return new Map(Object.entries(parsed.data.goals));
}

export interface Verdict {
  readonly id: string;
  readonly what: string;
  readonly value: number;
  readonly goal: string;
  /** Within the goal itself. */
  readonly met: boolean;
  /** Past the goal by more than its tolerance: what `--check` fails on. */
  readonly failed: boolean;
}

/** Compares one figure with its goal. Pure, so the check's rules are tested without running a bench. */
export function compare(id: string, goal: Goal, value: number): Verdict {
  if ('at_most' in goal) {
    return {
      id,
      what: goal.what,
      value,
      goal: `<= ${goal.at_most}${goal.unit}`,
      met: value <= goal.at_most,
      failed: !(value <= goal.at_most * (1 + goal.tolerance)),
    };
  }
  return {
    id,
    what: goal.what,
    value,
    goal: `>= ${goal.at_least}${goal.unit}`,
    met: value >= goal.at_least,
    failed: !(value >= goal.at_least * (1 - goal.tolerance)),
  };
}

const measured: Verdict[] = [];
let goals: Map<string, Goal> | undefined;

/** Records a figure against its goal and gives the `MET` / `NOT MET` word for the part's own line. */
export function judge(id: string, value: number): 'MET' | 'NOT MET' {
  goals ??= loadGoals();
  const goal = goals.get(id);
  if (!goal) throw new Error(`bench figure "${id}" has no goal in bench/goals.json`);
  const v = compare(id, goal, value);
  measured.push(v);
  return v.met ? 'MET' : 'NOT MET';
}

/** The goal's bound, for a part's line ("goal <= 1.2x"), read from the same file. */
export function goalOf(id: string): string {
  goals ??= loadGoals();
  const goal = goals.get(id);
  if (!goal) throw new Error(`bench figure "${id}" has no goal in bench/goals.json`);
  return 'at_most' in goal ? `<= ${goal.at_most}${goal.unit}` : `>= ${goal.at_least}${goal.unit}`;
}

/** Every figure judged so far in this process. */
export function verdicts(): readonly Verdict[] {
  return measured;
}
