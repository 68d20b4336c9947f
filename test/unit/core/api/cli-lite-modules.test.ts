/**
 * Two stand-ins the built CLI uses to keep an idle `postdesk executor` small (vite.cli.config.ts):
 * scripts/prom-client-lite.mjs for 'prom-client', and scripts/lazy-http2.mjs, which defers undici's node:http2.
 * Both lean on files their packages do not promise, so these fail loudly when an update changes them.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { constants as h2 } from 'node:http2';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as prom from 'prom-client';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../../..');
const lite = (await import(pathToFileURL(join(ROOT, 'scripts', 'prom-client-lite.mjs')).href)) as typeof prom;
const { H2_CONSTANTS, deferHttp2 } = (await import(
  pathToFileURL(join(ROOT, 'scripts', 'lazy-http2.mjs')).href
)) as { H2_CONSTANTS: Record<string, string | number>; deferHttp2: (code: string) => string };

/** Every name src-main imports (as a value) from 'prom-client'. */
function promNames(): Set<string> {
  const names = new Set<string>();
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith('.ts')) {
        for (const m of readFileSync(p, 'utf8').matchAll(/^import\s+\{([^}]*)\}\s+from\s+'prom-client';/gm)) {
          for (const n of (m[1] ?? '').split(',')) {
            const name = n.trim();
            if (name && !name.startsWith('type ')) names.add(name.split(/\s+as\s+/)[0] as string);
          }
        }
      }
    }
  };
  walk(join(ROOT, 'src-main'));
  return names;
}

describe('scripts/prom-client-lite.mjs', () => {
  it("gives prom-client's own classes for every name src-main imports", () => {
    const names = promNames();
    expect([...names]).toContain('Registry');
    for (const name of names) {
      if (name === 'collectDefaultMetrics') continue;
      expect(lite[name as keyof typeof prom], name).toBe(prom[name as keyof typeof prom]);
    }
  });

  it("collects prom-client's default process metrics into the registry given", async () => {
    const registry = new lite.Registry();
    lite.collectDefaultMetrics({ register: registry, prefix: 'x_' });
    expect(await registry.metrics()).toMatch(/^x_process_cpu_user_seconds_total /m);
  });
});

describe('scripts/lazy-http2.mjs', () => {
  const source = readFileSync(join(ROOT, 'node_modules/undici/lib/dispatcher/client-h2.js'), 'utf8');

  it("holds the protocol's names and codes node:http2 has", () => {
    for (const [name, value] of Object.entries(H2_CONSTANTS)) {
      expect(value, name).toBe(h2[name as keyof typeof h2]);
    }
  });

  it("rewrites undici's client-h2.js so that loading it no longer loads node:http2", () => {
    const out = deferHttp2(source);
    expect(out).not.toContain("http2 = require('node:http2')");
    expect(out).toContain("connect: (...a) => require('node:http2').connect(...a)");
  });

  it('refuses a client-h2.js that uses node:http2 another way', () => {
    expect(() => deferHttp2(`${source}\nhttp2.getDefaultSettings()`)).toThrow(/review/);
  });
});
