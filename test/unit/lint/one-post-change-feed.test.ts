import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { expect, it } from 'vitest';

/**
 * `posts:didChange` has one source: the post-state model, which tells what the local index took. A handler that
 * announced a change by hand could announce one that did not happen or miss one that did (the views drifted so).
 */
const ROOT = resolve(import.meta.dirname, '../../..');
const ALLOWED = 'src-main/core/post-state/';

function* sources(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* sources(p);
    else if (/\.tsx?$/.test(e.name)) yield p;
  }
}

it('names posts:didChange only in src-main/core/post-state', () => {
  const found: string[] = [];
  for (const file of sources(join(ROOT, 'src-main'))) {
    const rel = relative(ROOT, file).split('\\').join('/');
    if (rel.startsWith(ALLOWED)) continue;
    if (/['"`]posts:didChange['"`]/.test(readFileSync(file, 'utf8'))) found.push(rel);
  }
  expect(found).toEqual([]);
});
