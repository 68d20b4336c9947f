// `npm test` runs this first (`pretest`): the suite needs a Node that every installed dependency accepts (jsdom 31,
// for one, needs 22.22.2 or later on the 22 line), and an older one fails minutes later, after typecheck and lint,
// on a missing API. This says so in a second. The floor is read from the dependencies' own `engines`, not written
// here. `node scripts/check-node.mjs [ROOT]`. Plain JavaScript that any Node since 16 runs, since its job is to
// meet old ones.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** [major, minor, patch] of `1.2.3`, `v1.2`, `1.x`; missing or wildcard parts are 0, and `wild` says where. */
function parse(text) {
  const parts = text.replace(/^v/, '').split('.');
  const nums = [0, 0, 0];
  let given = 0;
  for (let i = 0; i < 3; i += 1) {
    const p = parts[i];
    if (p === undefined || p === '*' || p === 'x' || p === 'X') break;
    if (!/^\d+$/.test(p)) throw new Error(`not a version: "${text}"`);
    nums[i] = Number(p);
    given = i + 1;
  }
  return { v: nums, given };
}

function compare(a, b) {
  for (let i = 0; i < 3; i += 1) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

/** The next version past a partial one: `22` → 23.0.0, `22.12` → 22.13.0. */
function bump(v, given) {
  if (given === 0) return [Infinity, 0, 0];
  const next = [...v];
  next[given - 1] += 1;
  for (let i = given; i < 3; i += 1) next[i] = 0;
  return next;
}

/** One comparator: `>=1.2.3`, `>1`, `<=2`, `<2`, `^1.2.3`, `~1.2`, `1.x`, `1.2.3`, `*`. */
function comparator(text, version) {
  const m = /^(>=|<=|>|<|\^|~|=)?\s*(.+)$/.exec(text);
  if (!m) throw new Error(`cannot read "${text}"`);
  const op = m[1] ?? '';
  const { v, given } = parse(m[2]);
  const c = compare(version, v);
  switch (op) {
    case '>=':
      return c >= 0;
    case '>':
      return compare(version, given === 3 ? v : bump(v, given)) >= (given === 3 ? 1 : 0);
    case '<=':
      return given === 3 ? c <= 0 : compare(version, bump(v, given)) < 0;
    case '<':
      return c < 0;
    case '^': {
      const lead = v[0] !== 0 || given <= 1 ? 1 : v[1] !== 0 || given <= 2 ? 2 : 3;
      return c >= 0 && compare(version, bump(v, lead)) < 0;
    }
    case '~':
      return c >= 0 && compare(version, bump(v, Math.min(given, 2) || 1)) < 0;
    default:
      return c >= 0 && compare(version, given === 3 ? [v[0], v[1], v[2] + 1] : bump(v, given)) < 0;
  }
}

/** Whether `version` ("22.12.0") meets an npm `engines.node` range (`^22.22.2 || >=24`, `>= 10`, `10.* || >= 12.*`). */
export function satisfies(version, range) {
  const v = parse(version).v;
  return range.split('||').some((alternative) => {
    const words = alternative
      .trim()
      .replace(/(>=|<=|>|<|\^|~|=)\s+/g, '$1')
      .split(/\s+/)
      .filter(Boolean);
    if (words.length === 0 || (words.length === 1 && words[0] === '*')) return true;
    return words.every((w) => comparator(w, v));
  });
}

/** The engines.node of each direct dependency installed under `root`: [name, version, range]. */
export function dependencyRanges(root) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const names = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies });
  const out = [];
  for (const name of names) {
    const file = join(root, 'node_modules', name, 'package.json');
    if (!existsSync(file)) continue;
    const dep = JSON.parse(readFileSync(file, 'utf8'));
    if (dep.engines && typeof dep.engines.node === 'string') out.push([name, dep.version, dep.engines.node]);
  }
  return out;
}

/** The lowest version of each LTS line that every range accepts, for the message: `22.22.2`, `24.15.0`. */
export function lowestAccepted(ranges, lines = [22, 24]) {
  const found = [];
  for (const major of lines) {
    search: for (let minor = 0; minor <= 60; minor += 1) {
      for (let patch = 0; patch <= 30; patch += 1) {
        const v = `${major}.${minor}.${patch}`;
        if (ranges.every(([, , range]) => satisfies(v, range))) {
          found.push(v);
          break search;
        }
      }
    }
  }
  return found;
}

/** Null when `version` will do for the tests, else what to tell the person running them. */
export function checkNode(version, root) {
  if (!existsSync(join(root, 'node_modules'))) {
    return 'npm test needs the dependencies: run `npm install` first.';
  }
  const ranges = dependencyRanges(root);
  const refusing = ranges.filter(([, , range]) => !satisfies(version, range));
  if (refusing.length === 0) return null;
  const floors = lowestAccepted(ranges).map((v) => v.replace(/\.0$/, ''));
  return (
    `npm test needs Node ${floors.length ? floors.join('+ or ') + '+' : 'of another version'}; this is Node ${version}.\n` +
    `Its dependencies say so in their engines: ${refusing.map(([n, v, r]) => `${n} ${v} (${r})`).join(', ')}.\n` +
    'In this checkout, `source scripts/dev-node.sh 24` puts Node 24 first on PATH; then run `npm test` again.'
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] || join(fileURLToPath(import.meta.url), '..', '..'));
  const problem = checkNode(process.versions.node, root);
  if (problem) {
    process.stderr.write(`${problem}\n`);
    process.exit(1);
  }
}
