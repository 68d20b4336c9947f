// Fails on any import circle among the repository's own modules, type-only imports included: a circle of types
// still ties the files into one unit that cannot be read, moved or tested apart (docs: style.md, "no import
// circles"). `npm run lint` runs it: `node scripts/import-cycles.mjs [ROOT]`.
//
// The graph is TypeScript's own view of each file: ts.preProcessFile lists every import, export-from, `import()`
// and require(), and ts.resolveModuleName resolves each specifier as the bundler does (`./x.js` to x.ts,
// folders to index.ts). Only the repository's own files are nodes; packages are leaves and cannot close a circle.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** The trees whose modules import one another. */
const TREES = [
  'src-main',
  'src-shared',
  'src-preload',
  'src-renderer',
  'src-sandbox',
  'bin',
  'bench',
  'scripts',
  'test',
];
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const SKIP_DIRS = new Set(['node_modules', 'out', 'dist', '.cache']);

const OPTIONS = {
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  allowJs: true,
  allowImportingTsExtensions: true,
  resolveJsonModule: false,
};

/** Every source file under `dir`, as absolute paths. */
function walk(dir, out) {
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names) {
    if (SKIP_DIRS.has(name)) continue;
    const full = join(dir, name);
    const st = statSync(full, { throwIfNoEntry: false });
    if (!st) continue;
    if (st.isDirectory()) walk(full, out);
    else if (SOURCE.test(name) && !/\.d\.[mc]?ts$/.test(name)) out.push(full);
  }
  return out;
}

/** The repository's source files under `root`. */
export function sourceFiles(root) {
  return TREES.flatMap((t) => walk(join(root, t), []));
}

/** file → the files of `files` it imports, in any form (type-only and dynamic included). */
export function importGraph(files) {
  const known = new Set(files);
  const graph = new Map();
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = new Set();
    for (const ref of info.importedFiles) {
      const resolved = ts.resolveModuleName(ref.fileName, file, OPTIONS, ts.sys).resolvedModule;
      const target = resolved && resolve(resolved.resolvedFileName);
      if (target && target !== file && known.has(target)) targets.add(target);
      else if (target === file) targets.add(file);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/**
 * The import circles of `graph`: one per strongly connected component of more than one file (or a file that
 * imports itself), each given as one closed path through it, first file repeated at the end.
 */
export function findCycles(graph) {
  // Tarjan's algorithm, iterative so a deep tree cannot overflow the stack.
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const components = [];
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work = [[start, 0]];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const frame = work[work.length - 1];
      const [node, i] = frame;
      const next = graph.get(node) ?? [];
      if (i < next.length) {
        frame[1] = i + 1;
        const to = next[i];
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push([to, 0]);
        } else if (onStack.has(to)) low.set(node, Math.min(low.get(node), index.get(to)));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === index.get(node)) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== node);
        if (component.length > 1 || (graph.get(node) ?? []).includes(node)) components.push(component);
      }
    }
  }
  return components.map((c) => closedPath(graph, new Set(c)));
}

/** A shortest circle through the first file (in sorted order) of a component, for the message. */
function closedPath(graph, members) {
  const start = [...members].sort()[0];
  const from = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const node = queue.shift();
    for (const to of graph.get(node) ?? []) {
      if (!members.has(to)) continue;
      if (to === start) {
        const path = [start];
        for (let n = node; n !== null && n !== start; n = from.get(n)) path.splice(1, 0, n);
        return [...path, start];
      }
      if (!from.has(to)) {
        from.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start, start];
}

/** The circles of the repository at `root`, each as repository-relative paths with `/`. */
export function importCycles(root) {
  const cycles = findCycles(importGraph(sourceFiles(root)));
  return cycles.map((c) => c.map((f) => relative(root, f).split(sep).join('/')));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(fileURLToPath(import.meta.url), '..', '..'));
  const cycles = importCycles(root);
  if (cycles.length) {
    process.stderr.write(
      `import-cycles: ${cycles.length} import circle${cycles.length === 1 ? '' : 's'} (type-only imports count too; ` +
        'move the shared type or interface into a file both sides import):\n' +
        cycles.map((c) => `  ${c.join(' → ')}\n`).join(''),
    );
    process.exit(1);
  }
  process.stdout.write('import-cycles: no import circle\n');
}
