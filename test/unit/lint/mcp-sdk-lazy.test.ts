import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The MCP SDK stays out of every load path but its own commands' (issue 25): in src-main only the modules
 * below import it, and nothing imports them but by `import()`, so `postdesk` at large, the app's start and
 * the idle executor never load it.
 */

const ROOT = resolve(import.meta.dirname, '../../..');
const LAZY = [
  'src-main/core/assistant/service-tools.ts',
  'src-main/core/assistant/connection-test.ts',
  'src-main/cli/mcp/stdio-server.ts',
];

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return sources(path);
    return /\.tsx?$/.test(e.name) ? [path] : [];
  });
}

/** The specifiers a file imports statically (imports, type-only included, and re-exports). */
export function staticImports(code: string): string[] {
  const found: string[] = [];
  const re = /^\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]/gm;
  for (const m of code.matchAll(re)) found.push((m[1] ?? m[2])!);
  return found;
}

const resolveFrom = (file: string, spec: string): string =>
  spec.startsWith('.') ? relative(ROOT, resolve(ROOT, dirname(file), spec)).replace(/\.tsx?$/, '') : spec;

describe('the MCP SDK is loaded lazily', () => {
  const files = sources('src-main');
  it('sees import forms the way the files write them', () => {
    expect(
      staticImports(
        "import { a } from 'x';\nimport type { B } from \"y\";\nexport * from './z';\nimport 'side';\nvoid import('lazy');",
      ),
    ).toEqual(['x', 'y', './z', 'side']);
  });

  it('only the lazy modules import @modelcontextprotocol/sdk', () => {
    const importers = files.filter((f) =>
      staticImports(readFileSync(join(ROOT, f), 'utf8')).some((s) =>
        s.startsWith('@modelcontextprotocol/sdk'),
      ),
    );
    expect(importers.filter((f) => !LAZY.includes(f))).toEqual([]);
  });

  it('no module imports a lazy module statically', () => {
    const lazy = new Set(LAZY.map((f) => f.replace(/\.tsx?$/, '')));
    const offenders = files.flatMap((f) =>
      staticImports(readFileSync(join(ROOT, f), 'utf8'))
        .filter((s) => lazy.has(resolveFrom(f, s)))
        // A type-only import is erased: it loads nothing.
        .filter(
          (s) =>
            !new RegExp(`import\\s+type\\b[^;]*['"]${s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}['"]`).test(
              readFileSync(join(ROOT, f), 'utf8'),
            ),
        )
        .map((s) => `${f} imports ${s}`),
    );
    expect(offenders).toEqual([]);
  });
});
