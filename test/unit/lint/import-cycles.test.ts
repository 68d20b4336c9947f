import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { importCycles } from '../../../scripts/import-cycles.mjs';

/**
 * scripts/import-cycles.mjs, the lint step that refuses import circles: a circle planted in a tree of files must fail
 * it, type-only imports included, and the repository itself must have none.
 */

const ROOT = resolve(import.meta.dirname, '../../..');
const SCRIPT = join(ROOT, 'scripts/import-cycles.mjs');

let tree = '';
afterEach(() => {
  if (tree) rmSync(tree, { recursive: true, force: true });
  tree = '';
});

/** A repository of the given files (path → text) in a fresh folder. */
function plant(files: Record<string, string>): string {
  tree = mkdtempSync(join(tmpdir(), 'pd-import-cycles-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(tree, path)), { recursive: true });
    writeFileSync(join(tree, path), text);
  }
  return tree;
}

function lint(root: string) {
  const r = spawnSync(process.execPath, [SCRIPT, root], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('the import-circle check', () => {
  it('fails on a circle of type-only imports, naming its files in order', () => {
    const root = plant({
      'src-main/core/a.ts': "import type { B } from './b';\nexport interface A { b: B }\n",
      'src-main/core/b.ts': "import type { A } from './a';\nexport interface B { a?: A }\n",
      'src-main/core/c.ts': "import type { A } from './a';\nexport type C = A;\n",
    });
    const r = lint(root);
    expect(r.code).toBe(1);
    expect(r.err).toContain('1 import circle');
    expect(r.err).toContain('src-main/core/a.ts → src-main/core/b.ts → src-main/core/a.ts');
    expect(r.err).not.toContain('c.ts');
  });

  it('follows re-exports, `.js` specifiers, folder indexes and `import()`, across trees', () => {
    const root = plant({
      'src-shared/x/index.ts': "export * from './y.js';\n",
      'src-shared/x/y.ts': "export const y = () => import('../../src-main/z');\n",
      'src-main/z.ts': "import { y } from '../src-shared/x';\nexport const z = y;\n",
      'src-main/alone.ts': "import 'zod';\nexport const alone = 1;\n",
    });
    expect(importCycles(root)).toEqual([
      ['src-main/z.ts', 'src-shared/x/index.ts', 'src-shared/x/y.ts', 'src-main/z.ts'],
    ]);
  });

  it('passes a tree whose imports run one way, and says so', () => {
    const root = plant({
      'src-main/a.ts': "import type { B } from './b';\nexport type A = B;\n",
      'src-main/b.ts': 'export type B = string;\n',
    });
    const r = lint(root);
    expect(r.code).toBe(0);
    expect(r.out).toBe('import-cycles: no import circle\n');
  });

  it('finds none in this repository', () => {
    expect(importCycles(ROOT)).toEqual([]);
  });
});
