/**
 * scripts/undici-lite.mjs, which vite.cli.config.ts puts in place of 'undici' in the built CLI, imports undici's
 * internal files (undici has no `exports` map, so nothing stops it, and nothing promises them either). This fails
 * loudly when an undici update moves or changes them, before a built CLI that cannot start ships.
 */
import { createServer, type Server } from 'node:http';
import { readFileSync, readdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as undici from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../../..');
const LITE = join(ROOT, 'scripts', 'undici-lite.mjs');
const VERSION = (
  JSON.parse(readFileSync(join(ROOT, 'node_modules', 'undici', 'package.json'), 'utf8')) as {
    version: string;
  }
).version;
const HINT = `undici ${VERSION} no longer matches scripts/undici-lite.mjs: fix its deep imports, or drop the alias in vite.cli.config.ts (the built CLI then loads undici's whole index)`;

type Lite = typeof undici;
let lite: Lite;
let server: Server;
let origin: string;

beforeAll(async () => {
  try {
    lite = (await import(pathToFileURL(LITE).href)) as Lite;
  } catch (err) {
    throw new Error(`${HINT}: ${(err as Error).message}`);
  }
  server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ method: req.method, url: req.url }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  if (server) await new Promise((r) => server.close(r));
});

/** Every name src-main imports (as a value) from 'undici': what the alias must provide. */
function namesImported(): Set<string> {
  const names = new Set<string>();
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith('.ts')) {
        const text = readFileSync(p, 'utf8');
        for (const m of text.matchAll(/^import\s+(?!type\b)\{([^}]*)\}\s+from\s+'undici';/gm)) {
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

describe("scripts/undici-lite.mjs, the built CLI's undici", () => {
  it("gives undici's own classes and errors, the very objects its index exports", () => {
    expect(lite.Agent, HINT).toBe(undici.Agent);
    expect(lite.Dispatcher, HINT).toBe(undici.Dispatcher);
    expect(lite.ProxyAgent, HINT).toBe(undici.ProxyAgent);
    expect(lite.errors, HINT).toBe(undici.errors);
  });

  it('exports every name the CLI imports from undici', () => {
    const names = namesImported();
    expect([...names].sort()).toEqual(expect.arrayContaining(['Agent', 'request']));
    for (const name of names) expect(lite[name as keyof Lite], `${name}: ${HINT}`).toBeDefined();
  });

  it("request answers as undici's does, on the global dispatcher and on a given one, with the same argument checks", async () => {
    const read = async (r: Awaited<ReturnType<Lite['request']>>) => ({
      status: r.statusCode,
      body: (await r.body.json()) as unknown,
    });
    const want = await read(await undici.request(`${origin}/a?b=1`));
    expect(await read(await lite.request(`${origin}/a?b=1`))).toEqual(want);
    const agent = new lite.Agent();
    try {
      expect(
        // `path` beside the origin: accepted by undici's request, though its types leave it out.
        await read(
          await lite.request(origin, {
            path: 'x',
            method: 'POST',
            body: '{}',
            dispatcher: agent,
          } as Parameters<Lite['request']>[1]),
        ),
      ).toEqual({ status: 200, body: { method: 'POST', url: '/x' } });
    } finally {
      await agent.close();
    }
    // Refused the same way (thrown or rejected, with the same error) as undici's own request.
    const failure = async (fn: () => Promise<unknown>) => {
      try {
        await fn();
        return null;
      } catch (err) {
        return { type: (err as Error).constructor, message: (err as Error).message };
      }
    };
    const badAgent = { agent: {} } as unknown as Parameters<Lite['request']>[1];
    for (const [url, opts] of [
      ['', undefined],
      [origin, badAgent],
      [origin, { path: 5 } as unknown as Parameters<Lite['request']>[1]],
    ] as const) {
      const theirs = await failure(() => undici.request(url, opts));
      expect(theirs).not.toBeNull();
      expect(await failure(() => lite.request(url, opts)), HINT).toEqual(theirs);
    }
  });
});
