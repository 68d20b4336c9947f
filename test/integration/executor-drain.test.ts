/**
 * `postdesk executor drain` against two real `postdesk executor` daemons on one sandbox: the one running the
 * occurrence is drained mid-run; its run completes, no new run starts on it, it shows `stopping` in
 * `executor status` and in its metrics, and the other daemon takes the next occurrence.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { updateSettings } from '../../src-main/core/config/settings';
import { storeFile } from '../../src-main/core/paths';
import { openStore } from '../../src-main/core/store/store';
import { runCliHere } from '../helpers/cli-process';
import { POSTDESK_BIN } from '../helpers/build-cli';
import { AUTOMATION_ID, TEST_AGENT, startHarness, type Harness } from './executor-harness';
import { scaled } from '../helpers/timeouts';

const HOUR = 3_600_000;
let h: Harness | undefined;
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  await h?.close();
  h = undefined;
});

async function waitFor(
  cond: () => boolean | Promise<boolean>,
  what: string,
  ms = scaled(30_000),
): Promise<void> {
  const until = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function http(
  url: string,
  o: { method?: string; headers?: Record<string, string>; from?: string } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((ok, fail) => {
    const opts = { method: o.method ?? 'GET', headers: o.headers ?? {}, localAddress: o.from };
    const req = request(url, opts, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

const sample = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

interface Daemon {
  readonly name: string;
  readonly dataDir: string;
  readonly gate: string;
  readonly child: ChildProcess;
  readonly log: () => string;
  base: string;
  metric(series: string): Promise<number | undefined>;
}

/** A daemon whose agent waits for its gate file: its run stays in progress until the test releases it. */
function daemon(harness: Harness, name: string): Daemon {
  const dataDir = join(harness.dir, name);
  const gate = join(harness.dir, `${name}.gate`);
  const store = openStore(storeFile(dataDir));
  updateSettings(store, {
    // The gate lives in the test's folder, which a confined agent may not write (bubblewrap, where installed,
    // confines it by default); confinement has its own tests (executor-confinement.test.ts).
    agentConfinement: 'off',
    agentCommands: {
      'test-agent': { command: process.execPath, args: [TEST_AGENT, '--mode', 'wait', '--gate', gate] },
    },
  });
  store.close();
  const child = spawn(
    process.execPath,
    [
      POSTDESK_BIN,
      '--base-url',
      harness.sb.url,
      'executor',
      '--name',
      name,
      '--sandbox-clock',
      '--metrics-port',
      '0',
    ],
    {
      env: { ...process.env, POSTDESK_DATA_DIR: dataDir, POSTDESK_API_KEY: harness.sb.apiKey, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  let log = '';
  child.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  const d: Daemon = {
    name,
    dataDir,
    gate,
    child,
    log: () => log,
    base: '',
    async metric(series) {
      return sample((await http(`${d.base}/metrics`)).body, series);
    },
  };
  return d;
}

describe('postdesk executor drain', () => {
  it(
    'drained mid-run, a daemon finishes its run and starts no more; the other takes the next occurrence',
    async () => {
      h = await startHarness();
      const harness = h;
      const daemons = [daemon(harness, 'one'), daemon(harness, 'two')];
      for (const d of daemons) {
        await waitFor(
          () => /metrics on http:\/\/127\.0\.0\.1:\d+\/metrics/.test(d.log()),
          `${d.name} metrics`,
        );
        d.base = /metrics on (http:\/\/127\.0\.0\.1:\d+)\/metrics/.exec(d.log())?.[1] as string;
        await waitFor(async () => (await http(`${d.base}/healthz`)).status === 200, `${d.name} first sync`);
      }

      // The hourly occurrence: both daemons decide it, one starts it and holds it at its gate.
      await harness.advance(HOUR);
      await waitFor(() => daemons.some((d) => existsSync(`${d.gate}.waiting`)), 'a run in progress');
      const busy = daemons.find((d) => existsSync(`${d.gate}.waiting`)) as Daemon;
      const other = daemons.find((d) => d !== busy) as Daemon;
      writeFileSync(other.gate, 'ok');
      await waitFor(
        async () => (await other.metric('postdesk_executor_state{state="idle"}')) === 1,
        'other idle',
      );

      // A control, not a figure: without its header (what a web page's form would send) it is refused.
      expect((await http(`${busy.base}/drain`, { method: 'POST' })).status).toBe(403);
      expect(await busy.metric('postdesk_executor_state{state="running"}')).toBe(1);

      // Drained by its metrics port, as a pod's preStop hook does: it says it waits on its one run.
      const port = new URL(busy.base).port;
      const env = { POSTDESK_DATA_DIR: busy.dataDir, NO_COLOR: '1', PATH: process.env.PATH };
      const drained = await runCliHere(['--json', 'executor', 'drain', '--port', port], env);
      expect(drained.code, drained.err).toBe(0);
      expect(JSON.parse(drained.out)).toEqual({ state: 'stopping', active_runs: 1 });
      expect((await runCliHere(['executor', 'drain', '--port', port], env)).err).toMatch(
        /draining: waiting on 1 run\(s\)/,
      );
      // Shown as stopping by `executor status` (its state file) and by its metrics.
      await waitFor(async () => {
        const s = await runCliHere(['--json', 'executor', 'status'], env);
        return (JSON.parse(s.out) as { state: string }).state === 'stopping';
      }, 'status stopping');
      const status = JSON.parse((await runCliHere(['--json', 'executor', 'status'], env)).out) as Record<
        string,
        unknown
      >;
      expect(status).toMatchObject({ running: true, state: 'stopping', active_runs: 1 });
      expect(await busy.metric('postdesk_executor_state{state="stopping"}')).toBe(1);
      expect(await busy.metric('postdesk_executor_state{state="running"}')).toBe(0);
      expect(await busy.metric('postdesk_executor_running_agents')).toBe(1);

      // The next occurrence falls due while the drained daemon still runs the first: the other one runs it.
      await harness.advance(HOUR);
      await waitFor(
        async () => ((await harness.sb.control.state()).runs.completed ?? 0) === 1,
        'the next occurrence run by the other daemon',
      );
      // The service has it completed a moment before the daemon counts it.
      await waitFor(
        async () =>
          (await other.metric(`postdesk_executor_runs_completed_total{automation_id="${AUTOMATION_ID}"}`)) ===
          1,
        'the other daemon to count its run',
      );
      expect(await busy.metric('postdesk_executor_running_agents')).toBe(1);

      // Released, the drained daemon's run completes; nothing new has started on it, it still says stopping.
      writeFileSync(busy.gate, 'ok');
      const waited = await runCliHere(['--json', 'executor', 'drain', '--port', port, '--wait', '30'], env);
      expect(waited.code, waited.err).toBe(0);
      expect(JSON.parse(waited.out)).toEqual({ state: 'stopping', active_runs: 0 });
      await waitFor(
        async () => ((await harness.sb.control.state()).runs.completed ?? 0) === 2,
        'the drained run to complete',
      );
      expect((await harness.sb.control.state()).runs).toEqual({ completed: 2 });
      // A third occurrence: still none on the drained daemon.
      await harness.advance(HOUR);
      await waitFor(
        async () => ((await harness.sb.control.state()).runs.completed ?? 0) === 3,
        'the third occurrence',
      );
      const started = (d: Daemon) =>
        d.metric(`postdesk_executor_runs_started_total{automation_id="${AUTOMATION_ID}"}`);
      expect(await started(busy)).toBe(1);
      expect(await started(other)).toBe(2);
      expect(await busy.metric('postdesk_executor_state{state="stopping"}')).toBe(1);

      // Without --port: the daemon of this data directory, through its drain request file.
      const otherEnv = { POSTDESK_DATA_DIR: other.dataDir, NO_COLOR: '1', PATH: process.env.PATH };
      const local = await runCliHere(['--json', 'executor', 'drain'], otherEnv);
      expect(local.code, local.err).toBe(0);
      expect(JSON.parse(local.out)).toEqual({ state: 'stopping', active_runs: 0 });
      expect(await other.metric('postdesk_executor_state{state="stopping"}')).toBe(1);

      for (const d of daemons) d.child.kill('SIGTERM');
      for (const d of daemons) {
        const code = await new Promise<number | null>((r) =>
          d.child.exitCode !== null ? r(d.child.exitCode) : d.child.once('exit', (c) => r(c)),
        );
        expect(code, d.log()).toBe(0);
      }
      // Its journal knows one run: the drained daemon did not even decide the later occurrences.
      const store = openStore(storeFile(busy.dataDir));
      try {
        const rows = store.db.prepare('SELECT state FROM executor_runs').all() as { state: string }[];
        expect(rows).toEqual([{ state: 'completed' }]);
      } finally {
        store.close();
      }
    },
    scaled(120_000),
  );
});

describe('--metrics-host 0.0.0.0 (a pod)', () => {
  // The pod IP and a peer on the pod network: on Linux every 127.x address is this machine's, so 127.0.0.3
  // (reached from 127.0.0.2) stands for them where the machine has no other interface.
  const external = Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
  const target = external ?? (process.platform === 'linux' ? '127.0.0.3' : undefined);
  const from = external ? undefined : '127.0.0.2';
  it.skipIf(!target)(
    'serves the figures at a non-loopback address, but drains only for a loopback peer',
    async () => {
      h = await startHarness();
      const { attachMetrics } = await import('../../src-main/core/executor/metrics');
      const { serveMetrics } = await import('../../src-main/core/executor/metrics-server');
      const executor = h.executor;
      await executor.runOnce();
      let drains = 0;
      const server = await serveMetrics(attachMetrics(executor, { clock: h.clock }), 0, {
        host: '0.0.0.0',
        drain: {
          drain: () => {
            drains += 1;
            return { state: 'stopping', ...executor.drain() };
          },
        },
      });
      try {
        const at = `http://${target as string}:${server.port}`;
        // The kubelet's probe and Prometheus: the pod IP in the Host header.
        expect((await http(`${at}/healthz`, { from })).status).toBe(200);
        expect((await http(`${at}/metrics`, { from })).body).toMatch(
          /^postdesk_executor_state\{state="idle"\} 1$/m,
        );
        // From the network, even with the header and a forged loopback Host, no drain.
        const headers = { 'x-postdesk-control': 'drain', host: `127.0.0.1:${server.port}` };
        expect((await http(`${at}/drain`, { method: 'POST', headers, from })).status).toBe(403);
        expect(drains).toBe(0);
        expect(executor.status().state).toBe('idle');
        // From the pod itself: drained.
        const local = await http(`${server.url}/drain`, { method: 'POST', headers });
        expect(local.status).toBe(202);
        expect(JSON.parse(local.body)).toEqual({ state: 'stopping', active_runs: 0 });
        expect(executor.status().state).toBe('stopping');
        await expect(executor.runNow(AUTOMATION_ID)).rejects.toThrow(/draining/);
      } finally {
        await server.close();
      }
    },
  );
});

describe('postdesk executor drain, with nothing to drain', () => {
  it('says so in words: no daemon (exit 1), nothing on the port (exit 4), a bad port (exit 2)', async () => {
    h = await startHarness();
    const env = { POSTDESK_DATA_DIR: join(h.dir, 'none'), NO_COLOR: '1', PATH: process.env.PATH };
    const none = await runCliHere(['executor', 'drain'], env);
    expect(none).toMatchObject({ code: 1 });
    expect(none.err).toMatch(/no executor daemon is running for this data directory/);
    // A port nothing listens on: the sandbox's own port is taken, so pick one just closed.
    const server = createServer().listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const port = String((server.address() as AddressInfo).port);
    await new Promise((r) => server.close(r));
    const closed = await runCliHere(['executor', 'drain', '--port', port], env);
    expect(closed).toMatchObject({ code: 4 });
    expect(closed.err).toMatch(new RegExp(`no executor answered on port ${port} of this machine`));
    const bad = await runCliHere(['executor', 'drain', '--port', '70000'], env);
    expect(bad).toMatchObject({ code: 2 });
    expect(bad.err).toMatch(/--port.*a port number from 1 to 65535, got "70000"/);
  });
});
