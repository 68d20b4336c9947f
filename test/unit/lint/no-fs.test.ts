import { join, resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The one door for files (src-main/core/files): eslint.config.js forbids `fs` everywhere else. Fed to the real
 * eslint from files in each tree: every way of reaching fs is refused outside the allowlist, and the door itself
 * (and the allowlisted folders) may use it. The files need not exist: the path alone decides.
 */

const ROOT = resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: ROOT, overrideConfigFile: join(ROOT, 'eslint.config.js') });

const SPECIFIERS = ['fs', 'node:fs', 'fs/promises', 'node:fs/promises', 'original-fs'];
const FORMS: Record<string, (s: string, n: number) => string> = {
  import: (s) => `import '${s}';`,
  'named import': (s, n) => `import { readFile as r${n} } from '${s}'; void r${n};`,
  'namespace import': (s, n) => `import * as f${n} from '${s}'; void f${n};`,
  'import type': (s, n) => `import type { Stats as S${n} } from '${s}'; export type { S${n} };`,
  're-export': (s) => `export * from '${s}';`,
  'named re-export': (s, n) => `export { readFile as rf${n} } from '${s}';`,
  'import()': (s) => `void import('${s}');`,
  'import() of a template': (s) => `void import(\`${s}\`);`,
  'require()': (s) => `void require('${s}');`,
  'createRequire()': (s) =>
    `import { createRequire as cr } from 'node:module'; void cr(import.meta.url)('${s}');`,
  'a require by another name': (s) => `declare const load: (m: string) => unknown; void load('${s}');`,
  'process.getBuiltinModule()': (s) => `void process.getBuiltinModule('${s}');`,
};

/** The lines (1-based) eslint's no-fs rule refuses in `code` written at `file`. */
async function refusedLines(file: string, code: string): Promise<number[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, file) });
  expect(result, file).toBeDefined();
  expect(
    result!.messages.filter((m) => m.fatal),
    file,
  ).toEqual([]);
  return result!.messages.filter((m) => m.ruleId === 'postdesk/no-fs').map((m) => m.line);
}

function every(): { code: string; lines: string[] } {
  const lines: string[] = [];
  const code: string[] = [];
  for (const s of SPECIFIERS)
    for (const [form, make] of Object.entries(FORMS)) {
      lines.push(`${form} of ${s}`);
      code.push(make(s, code.length));
    }
  return { code: code.join('\n'), lines };
}

describe('fs only through src-main/core/files', () => {
  it('refuses every way of reaching fs in every source tree, at any depth', async () => {
    const { code, lines } = every();
    for (const file of [
      'src-main/core/executor/new-module.ts',
      'src-main/core/bridge/probe.ts',
      'src-main/cli/commands/probe.ts',
      'src-main/app/probe.ts',
      'src-sandbox/media/probe.ts',
      'src-main/core/files-extra.ts',
      'src-main/core/filesystem/probe.ts',
      'src-shared/probe.ts',
      'src-renderer/src/probe.tsx',
      'resources/probe.ts',
    ]) {
      const refused = await refusedLines(file, code);
      expect(
        refused.map((n) => lines[n - 1]),
        file,
      ).toEqual(lines);
    }
  });

  it('allows it in the door and the allowlisted folders, each with its reason', async () => {
    const { code } = every();
    for (const file of [
      'src-main/core/files/no-follow.ts',
      'src-main/core/files/sub/x.ts',
      'test/security/probe.test.ts',
      'bench/probe.ts',
      'scripts/probe.mjs',
      'bin/postdesk.js',
      'resources/agents/probe.mjs',
    ])
      expect(await refusedLines(file, code), file).toEqual([]);
  });

  it('leaves other modules alone, and names the door in its message', async () => {
    const code = [
      "import { join } from 'node:path';",
      "import { readFile } from './fs';",
      "import { x } from 'fs-extra';",
      "import { y } from '../files';",
      'void join, readFile, x, y;',
    ].join('\n');
    expect(await refusedLines('src-main/core/executor/probe.ts', code)).toEqual([]);
    const [result] = await eslint.lintText("import 'node:fs';", {
      filePath: join(ROOT, 'src-main/core/executor/probe.ts'),
    });
    expect(result!.messages.map((m) => m.message)).toEqual([expect.stringContaining('src-main/core/files')]);
  });
});
