import { describe, expect, it } from 'vitest';
import { compare } from '../../../bench/goals';
import { combinedTable, markdownTable, type SavedRun } from '../../../bench/report';

const atMost = { what: 'list | slowdown', at_most: 3, tolerance: 0.1, unit: 'x' };
const run = (label: string, values: Record<string, number>, load: [number, number]): SavedRun => ({
  label,
  at: '2026-11-27T07:00:00.000Z',
  load: { before: load[0], after: load[1] },
  verdicts: Object.entries(values).map(([id, v]) => compare(id, atMost, v)),
});

describe('bench tables for docs/bench.md', () => {
  it('one run: each figure with its goal, value and MET / NOT MET, a | in a description escaped', () => {
    const table = markdownTable([
      compare('a.x', atMost, 2.5),
      compare('b.y', atMost, 3.2),
      compare('c.z', atMost, 9),
    ]);
    expect(table.split('\n')).toEqual([
      '| figure | what | goal | value | verdict |',
      '|---|---|---|---|---|',
      '| `a.x` | list \\| slowdown | <= 3x | 2.5 | MET |',
      '| `b.y` | list \\| slowdown | <= 3x | 3.2 | NOT MET (within tolerance) |',
      '| `c.z` | list \\| slowdown | <= 3x | 9 | NOT MET (past tolerance) |',
    ]);
  });

  it('runs side by side: a value and a verdict column each, with its load; a figure one run lacks says so', () => {
    const table = combinedTable([
      run('quiet', { 'a.x': 1.234, 'b.y': 2 }, [0.4, 1.2]),
      run('stress-ng --cpu 2', { 'a.x': 3.5 }, [3.9, 4.1]),
    ]).split('\n');
    expect(table[0]).toBe(
      '| figure | what | goal | quiet: value (load 0.4–1.2) | quiet | stress-ng --cpu 2: value (load 3.9–4.1) | stress-ng --cpu 2 |',
    );
    expect(table[1]).toBe('|---|---|---|---|---|---|---|');
    expect(table[2]).toBe(
      '| `a.x` | list \\| slowdown | <= 3x | 1.23 | MET | 3.5 | NOT MET (past tolerance) |',
    );
    expect(table[3]).toBe('| `b.y` | list \\| slowdown | <= 3x | 2 | MET | not run | NOT MET (not run) |');
  });

  it('a figure that could not be measured is not a number in the table', () => {
    expect(markdownTable([compare('a.x', atMost, Number.NaN)])).toContain(
      '| not measured | NOT MET (past tolerance) |',
    );
  });
});
