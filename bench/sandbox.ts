/**
 * Sandbox throughput: requests/second and p99 latency for listing posts, creating posts and a
 * 100-item bulk, beside a bare node:http handler answering the same JSON, measured in the same run.
 * Both servers run in this process on loopback and are driven by the same undici load loop.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { startSandbox } from '../src-sandbox/app';
import { DEMO_ACCOUNTS } from '../src-sandbox/demo-fixture';

const CONCURRENCY = 16;

interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  /** A fresh body per request (bulk needs a new batch_id each time). */
  body?: () => string;
  requests: number;
  maxMs: number;
}

interface Result {
  rps: number;
  p99: number;
  count: number;
  errors: number;
}

async function load(base: string, key: string, s: Scenario): Promise<Result> {
  const pool = new Pool(base, { connections: CONCURRENCY, pipelining: 1 });
  const latencies: number[] = [];
  let sent = 0;
  let errors = 0;
  const started = performance.now();
  const deadline = started + s.maxMs;
  const worker = async () => {
    while (sent < s.requests && performance.now() < deadline) {
      sent += 1;
      const t0 = performance.now();
      const res = await pool.request({
        method: s.method,
        path: s.path,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(s.body ? { body: s.body() } : {}),
      });
      await res.body.arrayBuffer();
      latencies.push(performance.now() - t0);
      if (res.statusCode >= 400) errors += 1;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const elapsed = (performance.now() - started) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  const p99 = latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))] ?? 0;
  return { rps: latencies.length / elapsed, p99, count: latencies.length, errors };
}

/** A bare node:http server that answers every request with the recorded status and JSON. */
async function baseline(
  answers: Map<string, { status: number; json: string }>,
): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const answer = answers.get(`${req.method} ${req.url}`) ?? {
        status: 404,
        json: '{"error":"not found"}',
      };
      res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(answer.json);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const item = (i: number) => ({
  item_key: `item-${i}`,
  caption: `Scheduled post number ${i} #bench`,
  action: 'draft',
  targets: [
    { social_account_id: DEMO_ACCOUNTS.x, platform: 'x' },
    { social_account_id: DEMO_ACCOUNTS.linkedin, platform: 'linkedin' },
  ],
});

export async function benchSandbox(): Promise<void> {
  const sandbox = await startSandbox({ port: 0, quiet: true });
  const key = sandbox.apiKey!;
  const bare = await baseline(new Map());
  try {
    const createBody = () =>
      JSON.stringify({
        caption: 'Benchmark draft #postdesk',
        action: 'draft',
        targets: [{ social_account_id: DEMO_ACCOUNTS.instagram, platform: 'instagram' }],
      });
    const bulkBody = () =>
      JSON.stringify({ batch_id: randomUUID(), items: Array.from({ length: 100 }, (_, i) => item(i)) });
    // Seed 200 posts so the list answers a full page of 50.
    for (let i = 0; i < 200; i++) {
      await fetch(`${sandbox.url}/api/cli/posts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: createBody(),
      });
    }
    const scenarios: Scenario[] = [
      {
        name: 'GET /api/cli/posts (50 per page)',
        method: 'GET',
        path: '/api/cli/posts?limit=50',
        requests: 3000,
        maxMs: 3000,
      },
      {
        name: 'POST /api/cli/posts (draft)',
        method: 'POST',
        path: '/api/cli/posts',
        body: createBody,
        requests: 2000,
        maxMs: 3000,
      },
      {
        name: 'POST /api/cli/posts/bulk (100 items)',
        method: 'POST',
        path: '/api/cli/posts/bulk',
        body: bulkBody,
        requests: 60,
        maxMs: 5000,
      },
    ];
    // The baseline answers each path with the JSON the sandbox returned for it.
    const answers = new Map<string, { status: number; json: string }>();
    for (const s of scenarios) {
      const res = await fetch(`${sandbox.url}${s.path}`, {
        method: s.method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(s.body ? { body: s.body() } : {}),
      });
      answers.set(`${s.method} ${s.path}`, { status: res.status, json: await res.text() });
    }
    const bareServer = await baseline(answers);
    bare.server.close();

    const rows: string[][] = [];
    for (const s of scenarios) {
      const sb = await load(sandbox.url, key, s);
      const base = await load(bareServer.url, key, s);
      if (sb.errors > 0) throw new Error(`${s.name}: ${sb.errors} error answers from the sandbox`);
      rows.push([
        s.name,
        `${sb.rps.toFixed(0)} req/s`,
        `p99 ${sb.p99.toFixed(1)} ms`,
        `${base.rps.toFixed(0)} req/s`,
        `p99 ${base.p99.toFixed(1)} ms`,
        `${sb.count}/${base.count} req`,
      ]);
    }
    bareServer.server.close();
    const header = ['scenario', 'sandbox', '', 'bare node:http', '', 'requests'];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const fmt = (r: string[]) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ');
    console.log(`concurrency ${CONCURRENCY}, loopback, both servers in this process`);
    console.log(fmt(header));
    for (const r of rows) console.log(fmt(r));
  } finally {
    bare.server.close();
    await sandbox.close();
  }
}
