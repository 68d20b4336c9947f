import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  engines: { node: string };
};

function parts(version: string): number[] {
  return version
    .replace(/^v/, '')
    .split('.')
    .map((n) => Number.parseInt(n, 10));
}

function atLeast(version: string, floor: string): boolean {
  const [a, b] = [parts(version), parts(floor)];
  for (let i = 0; i < 3; i += 1) {
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  }
  return true;
}

describe('the Node runtime under test', () => {
  it('is a supported LTS line, at or above the floor package.json declares', () => {
    const floor = /^>=(\d+\.\d+\.\d+)$/.exec(pkg.engines.node)?.[1];
    expect(floor, `engines.node is "${pkg.engines.node}"`).toBe('22.12.0');
    // Printed so that every CI run shows which Node it tested.
    console.info(`runtime: node ${process.version}, Node-API ${process.versions.napi}`);
    expect(atLeast(process.version, floor ?? '')).toBe(true);
    expect([22, 24]).toContain(parts(process.version)[0]);
  });

  it('compares versions the way the floor needs', () => {
    expect(atLeast('v20.19.0', '22.12.0')).toBe(false);
    expect(atLeast('v22.11.9', '22.12.0')).toBe(false);
    expect(atLeast('v22.12.0', '22.12.0')).toBe(true);
    expect(atLeast('v24.0.0', '22.12.0')).toBe(true);
  });
});
