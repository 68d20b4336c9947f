#!/usr/bin/env node
/**
 * Checks every GitHub Actions workflow in .github/workflows against the workflow schema, with
 * @action-validator/core (a WebAssembly build shipped inside its npm package: nothing is downloaded).
 * Part of `npm run lint`. Exits 1 and names each problem's place in the file when one is not valid.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { validateWorkflow } = require('@action-validator/core');

const dir = join(import.meta.dirname, '..', '.github', 'workflows');
const files = readdirSync(dir)
  .filter((f) => /\.ya?ml$/.test(f))
  .sort();

/** The innermost errors: a "one of" failure nests the reasons of each branch it tried. */
function leaves(errors, out = []) {
  for (const e of errors ?? []) {
    const nested = (e.states ?? []).flatMap((s) => s.errors ?? []);
    if (nested.length > 0) leaves(nested, out);
    else out.push(`${e.path || '/'}: ${e.detail ?? e.title ?? e.code}`);
  }
  return out;
}

let bad = 0;
for (const file of files) {
  const result = validateWorkflow(readFileSync(join(dir, file), 'utf8'));
  const problems = [...new Set(leaves(result.errors))];
  if (problems.length === 0) continue;
  bad += 1;
  console.error(`.github/workflows/${file}:`);
  for (const p of problems) console.error(`  ${p}`);
}
if (files.length === 0) {
  console.error('no workflow files in .github/workflows');
  process.exit(1);
}
if (bad > 0) process.exit(1);
console.log(`workflows: ${files.length} valid (${files.join(', ')})`);
