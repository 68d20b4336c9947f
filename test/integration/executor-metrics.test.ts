/**
 * `postdesk executor --metrics-port 0` as a real process against the sandbox, read over real HTTP:
 * Prometheus text with runs started, completed and not run per automation, the start delay histogram,
 * the last sync and the running agents; `/healthz` turns 503 when syncs fail for long enough, and 200 again.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { updateSettings } from '../../src-main/core/config/settings';
import { storeFile } from '../../src-main/core/paths';
import { openStore } from '../../src-main/core/store/store';
import { AUTOMATION_ID, FIXTURE_NOW, TEST_AGENT, startHarness, type Harness } from './executor-harness';
import { scaled } from '../helpers/timeouts';
import { POSTDESK_BIN } from '../helpers/build-cli';

const HOUR = 3_600_000;
let h: Harness | undefined;
let child: ChildProcess | undefined;
afterEach(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  child = undefined;
  await h?.close();
  h = undefined;
});

async function waitFor(cond: () => boolean | Promise<boolean>, what: string, ms = 30_000): Promise<void> {
  const until = Date.now() + scaled(ms);
  while (!(await cond())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A GET over a real socket; `host` overrides the Host header. */
function get(url: string, host?: string): Promise<{ status: number; type: string; body: string }> {
  return new Promise((ok, fail) => {
    const req = request(url, { headers: host ? { host } : {} }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () =>
        ok({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }),
      );
    });
    req.on('error', fail);
    req.end();
  });
}

/** The value of one sample of the Prometheus text, or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('postdesk executor --metrics-port', () => {
  it('serves the figures on loopback and a health check that follows the last sync', async () => {
    h = await startHarness();
    const dataDir = join(h.dir, 'daemon');
    const store = openStore(storeFile(dataDir));
    updateSettings(store, {
      agentCommands: { 'test-agent': { command: process.execPath, args: [TEST_AGENT, '--mode', 'ok'] } },
    });
    store.close();
    let log = '';
    child = spawn(
      process.execPath,
      [
        POSTDESK_BIN,
        '--base-url',
        h.sb.url,
        'executor',
        '--sandbox-clock',
        '--sync-interval',
        '60',
        '--metrics-port',
        '0',
      ],
      {
        env: { ...process.env, POSTDESK_DATA_DIR: dataDir, POSTDESK_API_KEY: h.sb.apiKey, NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout?.on('data', (d: Buffer) => (log += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
    await waitFor(() => /metrics on http:\/\/127\.0\.0\.1:\d+\/metrics/.test(log), 'the metrics line');
    const base = /metrics on (http:\/\/127\.0\.0\.1:\d+)\/metrics/.exec(log)?.[1] as string;
    const port = new URL(base).port;

    await waitFor(async () => (await get(`${base}/healthz`)).status === 200, 'the first sync');
    const healthy = JSON.parse((await get(`${base}/healthz`)).body) as {
      healthy: boolean;
      last_sync_at: string;
    };
    expect(healthy.healthy).toBe(true);

    // One occurrence on time, then three at once after a gap (policy latest: one runs, two are not run).
    await h.advance(HOUR);
    await waitFor(async () => ((await h!.sb.control.state()).runs.completed ?? 0) === 1, 'the first run');
    await h.advance(3 * HOUR);
    await waitFor(async () => ((await h!.sb.control.state()).runs.completed ?? 0) === 2, 'the second run');
    const series = (metric: string, extra = '') => `${metric}{automation_id="${AUTOMATION_ID}"${extra}}`;
    let text = '';
    await waitFor(async () => {
      text = (await get(`${base}/metrics`)).body;
      return sample(text, series('postdesk_executor_runs_completed_total')) === 2;
    }, 'the completions to be counted');
    const res = await get(`${base}/metrics`);
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(sample(text, series('postdesk_executor_runs_started_total'))).toBe(2);
    const missed = text
      .split('\n')
      .filter((l) => l.startsWith('postdesk_executor_runs_missed_total{'))
      .reduce((n, l) => n + Number(l.split(' ').at(-1)), 0);
    expect(missed).toBe(2);
    expect(sample(text, 'postdesk_executor_start_delay_seconds_count')).toBe(2);
    // Both runs started within a second of their occurrence (the latest of the three is the one that ran).
    expect(sample(text, 'postdesk_executor_start_delay_seconds_bucket{le="1"}')).toBe(2);
    expect(sample(text, 'postdesk_executor_running_agents')).toBe(0);
    // When it last succeeded, on the executor's (sandbox's) clock: the second run, four hours on.
    const lastOk = sample(text, series('postdesk_executor_automation_last_success_timestamp_seconds'));
    const fourHours = Date.parse(FIXTURE_NOW) / 1000 + 4 * 3600;
    expect(lastOk).toBeGreaterThanOrEqual(fourHours);
    expect(lastOk).toBeLessThan(fourHours + 60);
    expect(sample(text, 'postdesk_executor_state{state="idle"}')).toBe(1);
    expect(sample(text, 'postdesk_executor_state{state="stopping"}')).toBe(0);
    expect(sample(text, 'postdesk_executor_last_sync_timestamp_seconds')).toBeGreaterThan(
      Date.parse('2020-01-01') / 1000,
    );
    expect(text).toMatch(/^postdesk_executor_process_resident_memory_bytes \d+/m);

    // Another Host than the loopback address (a DNS name rebound to 127.0.0.1) is refused.
    expect((await get(`${base}/metrics`, `evil.example:${port}`)).status).toBe(403);

    // Syncs failing for longer than three intervals: unhealthy; once they succeed again: healthy.
    await h.sb.control.faults({ error_rate: 1, paths: ['/api/agent/'] });
    await h.advance(5 * 60_000);
    await waitFor(async () => (await get(`${base}/healthz`)).status === 503, 'the health check to fail');
    const sick = JSON.parse((await get(`${base}/healthz`)).body) as { healthy: boolean; age_seconds: number };
    expect(sick.healthy).toBe(false);
    expect(sick.age_seconds).toBeGreaterThanOrEqual(300);
    await h.sb.control.faults({});
    await h.advance(60_000);
    await waitFor(async () => (await get(`${base}/healthz`)).status === 200, 'the health check to recover');

    child.kill('SIGTERM');
    const code = await new Promise<number | null>((r) => child?.once('exit', (c) => r(c)));
    expect(code, log).toBe(0);
  });
});

describe('the same figures for Settings → Executor', () => {
  it('the bridge port answers the registry’s figures, by automation, with its name', async () => {
    h = await startHarness();
    const { attachMetrics } = await import('../../src-main/core/executor/metrics');
    const { executorPortFor } = await import('../../src-main/core/bridge/executor-port');
    const { ExecutorMetrics } = await import('../../src-shared/ipc/executor');
    const ex = h.another({
      agent: { command: process.execPath, args: [TEST_AGENT, '--mode', 'fail'] },
    }).executor;
    const metrics = attachMetrics(ex, { clock: h.clock });
    const port = executorPortFor(() => ex);
    await ex.runOnce();
    await h.advance(HOUR);
    await ex.runOnce();
    const view = ExecutorMetrics.parse(await port.metrics?.());
    expect(view.automations).toEqual([
      { automation_id: AUTOMATION_ID, name: 'Hourly test', started: 1, completed: 0, failed: 1, missed: 0 },
    ]);
    expect(view.healthy).toBe(true);
    expect(view.start_delay.count).toBe(1);
    expect(view.start_delay.mean_seconds).toBe(0);
    const text = await metrics.text();
    expect(
      sample(
        text,
        `postdesk_executor_runs_failed_total{automation_id="${AUTOMATION_ID}",reason="agent_failed"}`,
      ),
    ).toBe(1);
    // Past three sync intervals of the executor's clock without a sync, the app says so too.
    h.clock.advance(4 * 60_000);
    expect((await port.metrics?.())?.healthy).toBe(false);
    expect(await executorPortFor(() => null).metrics?.()).toBeNull();
  });
});
