import { describe, expect, it } from 'vitest';
import { appliedFactor } from '../../helpers/scale-timeouts';
import { MAX_FACTOR, TIMEOUTS, loadFactor, runFactor, scaled } from '../../helpers/timeouts';

/**
 * The suite's time limits follow the machine's load (test/helpers/timeouts.ts): an idle machine keeps the bases, a
 * loaded one gets more time in proportion, and a hung test still ends.
 */

describe('the load factor', () => {
  it('is the load per core, between 1 and the cap', () => {
    expect(loadFactor(0.3, 2)).toBe(1);
    expect(loadFactor(2, 2)).toBe(1);
    expect(loadFactor(5, 2)).toBe(2.5);
    expect(loadFactor(7.5, 2)).toBe(3.75);
    expect(loadFactor(40, 2)).toBe(MAX_FACTOR);
    expect(loadFactor(5, 0)).toBe(MAX_FACTOR);
  });

  it('is at least the factor the run was told it shares the machine with, within the same bounds', () => {
    expect(runFactor(0.3, 2)).toBe(2);
    expect(runFactor(7.5, 2)).toBe(3.75);
    expect(runFactor(0.3, 1)).toBe(1);
    expect(runFactor(0.3, 0)).toBe(1);
    expect(runFactor(0.3, Number.NaN)).toBe(1);
    expect(runFactor(0.3, 9)).toBe(MAX_FACTOR);
  });

  it('scales a limit to whole ms', () => {
    expect(scaled(30_000, 1)).toBe(30_000);
    expect(scaled(30_000, 2.5)).toBe(75_000);
    expect(scaled(5_000, 1.333)).toBe(6_665);
  });
});

describe('the limits of this very file', () => {
  it('are the bases times the load when it started', ({ task }) => {
    expect(appliedFactor).toBeGreaterThanOrEqual(1);
    expect(appliedFactor).toBeLessThanOrEqual(MAX_FACTOR);
    expect(task.timeout).toBe(scaled(TIMEOUTS.test, appliedFactor));
  });
});

describe('every time limit a test file writes itself', () => {
  it('goes through scaled(), so a loaded machine stretches it as it does the defaults', async () => {
    const { readFile, readdir } = await import('node:fs/promises');
    const { join, relative, resolve } = await import('node:path');
    const root = resolve(import.meta.dirname, '../../..');
    const files = (await readdir(join(root, 'test'), { recursive: true }))
      .filter((f) => /\.test\.tsx?$/.test(f))
      .map((f) => join(root, 'test', f));
    expect(files.length).toBeGreaterThan(200);
    // A bare number of 1,000 ms or more closing a test, a hook or a describe: `}, 120_000);`, or on its own line
    // before the closing parenthesis as prettier writes a long call.
    const bare = /\}, [\d_]{4,}\);\s*$|^\s*[\d_]{4,},?\s*\n\s*\);/m;
    const offenders: string[] = [];
    for (const file of files) {
      const text = await readFile(file, 'utf8');
      const lines = text.split('\n');
      lines.forEach((line, i) => {
        if (bare.test(`${line}\n${lines[i + 1] ?? ''}`)) offenders.push(`${relative(root, file)}:${i + 1}`);
      });
    }
    expect(offenders).toEqual([]);
  });
});
