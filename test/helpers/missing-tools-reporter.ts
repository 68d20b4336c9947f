/**
 * Ends a vitest run with the tests skipped for a missing system tool (system-tools.ts), one line per tool:
 * `skipped (missing tool): zsh — 1 test (the zsh completion script is run in zsh): file > test`. The run itself
 * stays green: these tools are optional, and the line says what to install to run them.
 */
import type { Reporter, TestModule } from 'vitest/node';
import { systemTools } from './system-tools.ts';

export interface MissingToolSkip {
  readonly tools: readonly string[];
  readonly why: string;
  /** `file > suite > test`. */
  readonly test: string;
}

/** The closing lines for these skips; none when there are none. */
export function missingToolsSummary(skips: readonly MissingToolSkip[]): string[] {
  const byTool = new Map<string, MissingToolSkip[]>();
  for (const s of skips) {
    const key = s.tools.join(' and ');
    byTool.set(key, [...(byTool.get(key) ?? []), s]);
  }
  const lines = [...byTool].map(([tool, list]) => {
    const whys = [...new Set(list.map((s) => s.why))].join('; ');
    const n = `${list.length} test${list.length === 1 ? '' : 's'}`;
    return `skipped (missing tool): ${tool} — ${n} (${whys}): ${list.map((s) => s.test).join(', ')}`;
  });
  if (lines.length === 0) return [];
  const packages = new Set(
    skips.flatMap((s) => s.tools).map((c) => systemTools().find((t) => t.command === c)?.package ?? c),
  );
  return [
    ...lines,
    `to run them: sudo apt-get install ${[...packages].join(' ')} (README, "Optional tools for the tests")`,
  ];
}

export class MissingToolsReporter implements Reporter {
  onTestRunEnd(testModules: readonly TestModule[]): void {
    const skips: MissingToolSkip[] = [];
    for (const m of testModules) {
      for (const t of m.children.allTests('skipped')) {
        const missing = t.meta().missingTool;
        if (missing) skips.push({ ...missing, test: `${m.relativeModuleId} > ${t.fullName}` });
      }
    }
    const lines = missingToolsSummary(skips);
    if (lines.length) process.stdout.write(`\n${lines.join('\n')}\n`);
  }
}
