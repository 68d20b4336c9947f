import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * No procedure of src-main or src-shared over FUNCTION_MAX_LINES lines of code without a reason at its top
 * (style.md, "small modules"): eslint's max-lines-per-function keeps the size, and each exception is an
 * `eslint-disable-next-line max-lines-per-function -- why` line on the function itself, never a file-wide one.
 */

const ROOT = resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: ROOT, overrideConfigFile: join(ROOT, 'eslint.config.js') });
const TREES = ['src-main', 'src-shared'];
/** The limit as the config sets it for src-main and src-shared. */
const FUNCTION_MAX_LINES: number = (
  (await eslint.calculateConfigForFile(join(ROOT, 'src-main/core/probe.ts'))) as {
    rules: Record<string, [unknown, { max: number }]>;
  }
).rules['max-lines-per-function']![1].max;

function sources(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, e.name);
    if (e.isDirectory()) sources(full, out);
    else if (/\.tsx?$/.test(e.name)) out.push(full);
  }
  return out;
}

/** A function of `lines` statements, with blank lines and comments between them that do not count. */
function fn(lines: number): string {
  const body = Array.from({ length: lines - 4 }, (_, i) => `  total += ${i};\n\n  // a comment\n`).join('');
  return `export function probe(): number {\n  let total = 0;\n${body}  return total;\n}\n`;
}

async function sizeMessages(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, file) });
  return result!.messages.filter((m) => m.ruleId === 'max-lines-per-function').map((m) => m.message);
}

describe('function size', () => {
  it('refuses a function of src-main or src-shared over the limit of lines of code (about 120)', async () => {
    expect(FUNCTION_MAX_LINES).toBe(120);
    for (const file of ['src-main/core/probe.ts', 'src-main/cli/commands/probe.ts', 'src-shared/probe.ts']) {
      // FUNCTION_MAX_LINES lines: the opening and closing lines count, blank lines and comments do not.
      expect(await sizeMessages(file, fn(FUNCTION_MAX_LINES)), file).toEqual([]);
      expect(await sizeMessages(file, fn(FUNCTION_MAX_LINES + 1)), file).toHaveLength(1);
    }
  });

  it('takes an exception only on the function itself, with its reason', async () => {
    const code = fn(FUNCTION_MAX_LINES + 1);
    const reasoned = `// eslint-disable-next-line max-lines-per-function -- one table, read top to bottom\n${code}`;
    expect(await sizeMessages('src-main/core/probe.ts', reasoned)).toEqual([]);

    const problems: string[] = [];
    for (const tree of TREES) {
      for (const file of sources(join(ROOT, tree))) {
        readFileSync(file, 'utf8')
          .split('\n')
          .forEach((line, i) => {
            if (!/eslint-disable.*max-lines-per-function/.test(line)) return;
            const at = `${relative(ROOT, file)}:${i + 1}`;
            if (!/eslint-disable-next-line max-lines-per-function -- /.test(line))
              problems.push(`${at}: only eslint-disable-next-line, on the function itself`);
            const why = line.split(' -- ')[1] ?? '';
            if (why.trim().split(/\s+/).length < 6) problems.push(`${at}: the reason says too little`);
          });
      }
    }
    expect(problems).toEqual([]);
  });
});
