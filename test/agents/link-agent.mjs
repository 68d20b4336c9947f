// An agent that plants links where the executor reads or writes in its run folder, then writes its output.
// `--plant NAME=KIND:TARGET` (repeatable; KIND is `symlink` or `hardlink`) replaces NAME in the run folder with a
// link to TARGET; `--output JSON` is what it writes to output.json, unless output.json itself was planted.
import { linkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
const runDir = process.env.POSTDESK_RUN_DIR;
const outputFile = process.env.POSTDESK_OUTPUT;
if (!runDir || !outputFile) {
  console.error('POSTDESK_RUN_DIR and POSTDESK_OUTPUT must be set');
  process.exit(2);
}
let output = null;
const planted = new Set();
for (let i = 0; i < args.length; i += 2) {
  const value = args[i + 1] ?? '';
  if (args[i] === '--output') output = value;
  if (args[i] === '--plant') {
    const [name, rest] = value.split(/=(.*)/s);
    const [kind, target] = rest.split(/:(.*)/s);
    const at = join(runDir, name);
    rmSync(at, { force: true });
    if (kind === 'symlink') symlinkSync(target, at);
    else linkSync(target, at);
    planted.add(name);
  }
}
console.log(`::step plant completed ${[...planted].join(', ')}`);
if (!planted.has('output.json') && output !== null) writeFileSync(outputFile, output);
