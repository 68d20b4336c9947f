/**
 * The load generator of bench/sandbox.ts, in a worker thread: a client sharing the servers' event loop would
 * queue its own work (building 100-item bodies, reading answers) between theirs and add it to their latency,
 * which no real client of the service does.
 */
import { randomUUID } from 'node:crypto';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { Client } from 'undici';
import { DEMO_ACCOUNTS } from '../src-sandbox/demo-fixture';

export interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  /** Which body each request gets, made fresh each time (bulk needs a new batch_id). */
  body?: keyof typeof BODIES;
  /** Requests per round. */
  requests: number;
  maxMs: number;
}

export interface Round {
  rps: number;
  latencies: number[];
  errors: number;
}

export interface LoadJob {
  base: string;
  key: string;
  scenario: Scenario;
  concurrency: number;
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

export const BODIES = {
  create: () =>
    JSON.stringify({
      caption: 'Benchmark draft #postdesk',
      action: 'draft',
      targets: [{ social_account_id: DEMO_ACCOUNTS.instagram, platform: 'instagram' }],
    }),
  bulk: () =>
    JSON.stringify({ batch_id: randomUUID(), items: Array.from({ length: 100 }, (_, i) => item(i)) }),
} as const;

/**
 * One round: `concurrency` connections, each keep-alive with one request in flight, all opened before the
 * clock starts (opened lazily, the first wave's requests waited for connections, not for the server).
 */
async function load({ base, key, scenario: s, concurrency }: LoadJob): Promise<Round> {
  const clients = Array.from({ length: concurrency }, () => new Client(base, { pipelining: 1 }));
  // Any answer opens the connection; both servers answer an unknown path with a small 404.
  await Promise.all(
    clients.map(async (c) => (await c.request({ method: 'GET', path: '/bench-connect' })).body.dump()),
  );
  const body = s.body ? BODIES[s.body] : undefined;
  const latencies: number[] = [];
  let sent = 0;
  let errors = 0;
  const started = performance.now();
  const deadline = started + s.maxMs;
  const worker = async (client: Client) => {
    while (sent < s.requests && performance.now() < deadline) {
      sent += 1;
      const payload = body?.();
      const t0 = performance.now();
      const res = await client.request({
        method: s.method,
        path: s.path,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(payload !== undefined ? { body: payload } : {}),
      });
      await res.body.arrayBuffer();
      latencies.push(performance.now() - t0);
      if (res.statusCode >= 400) errors += 1;
    }
  };
  await Promise.all(clients.map(worker));
  const elapsed = (performance.now() - started) / 1000;
  await Promise.all(clients.map((c) => c.close()));
  return { rps: latencies.length / elapsed, latencies, errors };
}

if (!isMainThread && parentPort) parentPort.postMessage(await load(workerData as LoadJob));
