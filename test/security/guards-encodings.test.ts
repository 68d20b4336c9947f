import { request } from 'node:http';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox';
import { startTestWebHost, type TestWebHost } from '../helpers/web-host';
import type { ExecutorMetrics } from '../../src-main/core/executor/metrics';
import { serveMetrics, type MetricsServer } from '../../src-main/core/executor/metrics-server';

/**
 * Issue #23, part 5: every guard decides on the route the router matched, never on the raw URL. Each guard (the
 * sandbox's control API, the web host's gate, the executor's metrics server) is hit with every way of writing
 * its path that a router may decode or normalise: `%5F`, `%2F`, doubled slashes, `..` and `.` segments, mixed
 * case. Raw HTTP (node:http sends the path as written), a foreign Host as DNS rebinding brings it.
 */

/** One request exactly as written; resolves with the status and body. */
function raw(
  origin: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Every way to write `/<first>/<rest>` that decodes or normalises to it. */
function spellings(first: string, rest: string): string[] {
  const enc = (s: string) => s.replace(/_/g, '%5F');
  const encLower = (s: string) => s.replace(/_/g, '%5f');
  const all = [...first]
    .map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)
    .join('');
  return [
    `/${first}/${rest}`,
    `/${enc(first)}/${rest}`,
    `/${encLower(first)}/${rest}`,
    `/${all}/${rest}`,
    `/${first}%2F${rest}`,
    `/${first}%2f${rest}`,
    `/%2F${first}/${rest}`,
    `//${first}/${rest}`,
    `/${first}//${rest}`,
    `/${first}/${rest}/`,
    `/x/../${first}/${rest}`,
    `/x/%2E%2E/${first}/${rest}`,
    `/${first}/./${rest}`,
    `/./${first}/${rest}`,
    `/${first.toUpperCase()}/${rest}`,
    `/${first}/${rest.toUpperCase()}`,
    `/${first[0]!.toUpperCase()}${first.slice(1)}/${rest}`,
    `/${first}/${rest};x`,
    `/${first}/${rest}%00`,
    `/${first}/${rest}#x`,
  ];
}

describe('the sandbox control guard', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startTestSandbox();
  });
  afterAll(() => sb?.close());

  const counts = async () => (await sb.control.state()) as unknown as Record<string, unknown>;

  it('refuses /_sandbox/reset and /_sandbox/state from a foreign Host, however the path is written', async () => {
    const before = JSON.stringify(await counts());
    const { port } = new URL(sb.url);
    const foreign = { host: `rebound.example:${port}`, 'content-type': 'application/json' };
    const answered: string[] = [];
    for (const path of [...spellings('_sandbox', 'reset'), ...spellings('_sandbox', 'state')]) {
      const reset = path.includes('eset') || path.includes('ESET');
      const r = await raw(sb.url, reset ? 'POST' : 'GET', path, foreign, reset ? '{}' : undefined);
      if (r.status < 400) answered.push(`${path} → ${r.status} ${r.body.slice(0, 80)}`);
    }
    expect(answered).toEqual([]);
    // Nothing was wiped: the owner's posts, accounts and keys are all still there.
    expect(JSON.stringify(await counts())).toBe(before);
    expect((await sb.api('GET', '/api/cli/accounts')).status).toBe(200);
  });

  it('refuses them from a page of another origin, however the path is written', async () => {
    const before = JSON.stringify(await counts());
    const { host } = new URL(sb.url);
    const cross = { host, origin: 'https://evil.example', 'content-type': 'application/json' };
    const answered: string[] = [];
    for (const path of spellings('_sandbox', 'reset')) {
      const r = await raw(sb.url, 'POST', path, cross, '{}');
      if (r.status < 400) answered.push(`${path} → ${r.status}`);
    }
    expect(answered).toEqual([]);
    expect(JSON.stringify(await counts())).toBe(before);
  });
});

describe('the web host gate', () => {
  let host: TestWebHost;
  beforeAll(async () => {
    host = await startTestWebHost('postdesk-guards-web-');
  });
  afterAll(() => host?.close());

  it('lets no spelling of the bridge, its uploads or a preview past the Host, Origin and secret checks', async () => {
    const origin = host.web.host.origin;
    const { host: own } = new URL(origin);
    const answered: string[] = [];
    const paths = [
      ...spellings('bridge', 'files'),
      ...spellings('bridge', 'session'),
      ...spellings('media', '00000000-0000-4000-8000-000000000000'),
    ];
    for (const path of paths) {
      const variants: Record<string, string>[] = [
        { host: `rebound.example:${new URL(origin).port}` },
        { host: own, origin: 'https://evil.example' },
        { host: own, origin },
      ];
      for (const headers of variants) {
        const r = await raw(
          origin,
          'POST',
          path,
          { ...headers, 'content-type': 'application/octet-stream' },
          'x',
        );
        // A grant, a session secret or a file would be a 200 with a body; a client-side route is the app's page.
        if (r.status < 400 && !r.body.includes('<title>Postdesk</title>')) {
          answered.push(`${path} ${JSON.stringify(headers)} → ${r.status} ${r.body.slice(0, 80)}`);
        }
      }
    }
    expect(answered).toEqual([]);
  });
});

describe('the executor metrics server', () => {
  let server: MetricsServer;
  beforeAll(async () => {
    // The Host check comes before any figure is read: figures that would show if one were served.
    const figures = {
      registry: { contentType: 'text/plain' },
      text: async () => 'postdesk_runs_total 1\n',
      health: () => ({ healthy: true, lastSyncAt: null, ageSeconds: null }),
    } as unknown as ExecutorMetrics;
    server = await serveMetrics(figures, 0);
  });
  afterAll(() => server?.close());

  it('answers no spelling of /metrics or /healthz to a foreign Host', async () => {
    const answered: string[] = [];
    for (const path of [
      ...spellings('metrics', 'x'),
      ...spellings('healthz', 'x'),
      '/metrics',
      '/%6Detrics',
    ]) {
      const r = await raw(server.url, 'GET', path, { host: `rebound.example:${server.port}` });
      if (r.status !== 403) answered.push(`${path} → ${r.status}`);
    }
    expect(answered).toEqual([]);
  });
});

/**
 * The census that keeps the class whole: every server and every request hook in the sources is one this file
 * hits above, or one that decides nothing. A new one fails here until it is added (and hit with every spelling).
 */
describe('every guard is one of these', () => {
  const ROOT = resolve(import.meta.dirname, '../..');
  const files = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile() && e.name.endsWith('.ts'))
      .map((e) => relative(ROOT, join(e.parentPath, e.name)));
  const KNOWN: Record<string, string> = {
    'src-sandbox/app.ts':
      'the sandbox: its app, the control guard (onRequest), and the alias host on the same routes',
    'src-sandbox/agent/routes.ts':
      'a preHandler that settles due work before the agent routes; it refuses nothing',
    'src-main/cli/web/web-host.ts': 'the web host, whose one gate is http-guard.ts',
    'src-main/cli/web/http-guard.ts': 'the web host gate (onRequest), on the matched route’s declared guard',
    'src-main/core/executor/metrics-server.ts':
      'the metrics server: Host first, on every path, then exact paths',
  };
  it('finds no server or hook this test does not hit', () => {
    const found = new Set<string>();
    for (const f of [...files('src-sandbox'), ...files('src-main')]) {
      const text = readFileSync(join(ROOT, f), 'utf8');
      if (
        /addHook\(\s*['"](onRequest|preParsing|preValidation|preHandler)['"]|createServer\(|\bFastify\(/.test(
          text,
        )
      )
        found.add(f);
    }
    expect([...found].sort()).toEqual(Object.keys(KNOWN).sort());
  });

  it('no guard reads the raw URL', () => {
    const gate = readFileSync(join(ROOT, 'src-main/cli/web/http-guard.ts'), 'utf8');
    expect(gate).not.toMatch(/\breq(uest)?\.(raw\.)?url\b/);
    expect(gate).toMatch(/req\.routeOptions\.config\.guard/);
    // The sandbox's hook reads the raw path only to log it; its guard and its injected faults, the route
    // (sandbox-faults-route.test.ts sends the spellings).
    const app = readFileSync(join(ROOT, 'src-sandbox/app.ts'), 'utf8');
    expect(app).toMatch(/isControlRoute\(req\.routeOptions\.url\)/);
    expect(app).toMatch(/faults\.decide\(matchedPath\(req\.routeOptions\.url, req\.params\)\)/);
    expect(app).not.toMatch(/path\.startsWith\('\/_sandbox/);
  });
});
