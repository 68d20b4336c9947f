import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { updateSettings } from '../../src-main/core/config/settings';
import { Journal } from '../../src-main/core/executor/journal';
import { storeFile } from '../../src-main/core/paths';
import { openStore } from '../../src-main/core/store/store';
import { scaled } from '../helpers/timeouts';
import { TEST_AGENT, agentCommand, automation, cli, startHarness, type Harness } from './executor-harness';
import { POSTDESK_BIN } from '../helpers/build-cli';

const MINUTE = 60_000;
let h: Harness | undefined;
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  await h?.close();
  h = undefined;
});

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** A folder of distinct PNGs (a comment after IEND makes each file's hash its own), with caption sidecars. */
function mediaFolder(dir: string, n: number): string {
  const folder = join(dir, 'queue');
  mkdirSync(folder, { recursive: true });
  for (let i = 1; i <= n; i += 1) {
    const name = `img-${String(i).padStart(3, '0')}`;
    writeFileSync(join(folder, `${name}.png`), Buffer.concat([PNG, Buffer.from(`#${i}`)]));
    writeFileSync(join(folder, `${name}.txt`), `Picture ${i}`);
  }
  return folder;
}

const minutely = () =>
  automation({
    name: 'Every minute',
    schedule: { cron: '* * * * *', timezone: 'UTC' },
    instructions: 'Post the next picture of the folder.',
  });

async function waitFor(
  cond: () => boolean | Promise<boolean>,
  ms = 30_000,
  what = 'condition',
): Promise<void> {
  // The limit follows the machine's load, like the test's own (test/helpers/timeouts.ts).
  const until = Date.now() + scaled(ms);
  while (!(await cond())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const total = (runs: Record<string, number>) => Object.values(runs).reduce((a, b) => a + b, 0);

describe('executor reliability', () => {
  it('two executors at once: 50 occurrences give exactly 50 runs, each started and completed once', async () => {
    h = await startHarness();
    const folder = mediaFolder(h.dir, 55);
    const { id: _id, ...body } = minutely();
    await h.sb.control.putAutomation(_id as string, body);
    // Five occurrences per pass, run five at a time (policy "all"): the same 50 occurrences, in fewer passes.
    // Both machines publish from the same folder, which is the user's setting for this automation.
    const fast = {
      agentType: 'folder',
      agent: undefined,
      folderFor: (id: string) => (id === _id ? folder : undefined),
      concurrency: 5,
      missedRunPolicy: 'all',
    } as const;
    const a = h.another(fast).executor;
    const b = h.another(fast).executor;
    await Promise.all([a.runOnce(), b.runOnce()]);
    for (let i = 0; i < 10; i += 1) {
      await h.advance(5 * MINUTE);
      await Promise.all([a.runOnce(), b.runOnce()]);
    }
    const state = await h.sb.control.state();
    expect(state.runs).toEqual({ completed: 50 });
    expect(state.deliveries).toEqual({ draft: 50 });
    const rows = [...a.journal.list({ limit: 1000 }), ...b.journal.list({ limit: 1000 })];
    expect(rows.filter((r) => r.state === 'completed')).toHaveLength(50);
    const lost = rows.filter((r) => r.state === 'not_run');
    expect(lost).toHaveLength(50);
    expect(lost.every((r) => r.reason_code === 'other_executor')).toBe(true);
    expect(new Set(rows.filter((r) => r.state === 'completed').map((r) => r.scheduled_for)).size).toBe(50);
    const published = JSON.parse(readFileSync(join(folder, '.postdesk-folder-agent.json'), 'utf8')) as {
      published: { file: string }[];
    };
    expect(published.published).toHaveLength(50);
    expect(new Set(published.published.map((p) => p.file)).size).toBe(50);
  });

  it('with error_rate 0.1 and reset_rate 0.1, 50 occurrences give exactly 50 runs and no duplicate completion', async () => {
    h = await startHarness();
    const folder = mediaFolder(h.dir, 55);
    const { id: _id, ...body } = minutely();
    await h.sb.control.putAutomation(_id as string, body);
    const ex = h.another({
      agentType: 'folder',
      agent: undefined,
      folder,
      concurrency: 5,
      missedRunPolicy: 'all',
    }).executor;
    await ex.runOnce();
    await h.sb.control.faults({ error_rate: 0.1, reset_rate: 0.1, seed: 42 });
    for (let i = 0; i < 10; i += 1) {
      await h.advance(5 * MINUTE);
      await ex.runOnce();
    }
    await h.sb.control.faults({});
    await ex.runOnce();
    const state = await h.sb.control.state();
    expect(total(state.runs)).toBe(50);
    expect(state.runs.completed).toBe(50);
    // Each completion makes one draft post with one delivery: a doubled completion would show here.
    expect(state.deliveries).toEqual({ draft: 50 });
    const rows = ex.journal.list({ limit: 1000 });
    expect(rows.filter((r) => r.state === 'completed')).toHaveLength(50);
    expect(new Set(rows.map((r) => r.run_id)).size).toBe(50);
  });

  it('kill -9 of `postdesk executor` mid-run, then a restart: 50 occurrences give exactly 50 runs', async () => {
    h = await startHarness();
    const { id: _id, ...body } = automation({
      name: 'Every minute',
      schedule: { cron: '* * * * *', timezone: 'UTC' },
    });
    await h.sb.control.putAutomation(_id as string, body);
    const dataDir = join(h.dir, 'daemon');
    const store = openStore(storeFile(dataDir));
    updateSettings(store, {
      agentCommands: {
        'test-agent': { command: process.execPath, args: [TEST_AGENT, '--mode', 'slow', '--ms', '150'] },
      },
      concurrency: 3,
      missedRunPolicy: 'all',
    });
    const journal = new Journal(store, null);
    const daemon = () => {
      const child = spawn(
        process.execPath,
        [POSTDESK_BIN, '--base-url', h!.sb.url, 'executor', '--sandbox-clock', '--sync-interval', '60'],
        {
          env: { ...process.env, POSTDESK_DATA_DIR: dataDir, POSTDESK_API_KEY: h!.sb.apiKey, NO_COLOR: '1' },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let log = '';
      child.stdout?.on('data', (d: Buffer) => (log += d.toString()));
      child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
      children.push(child);
      return { child, log: () => log };
    };
    const ready = () =>
      journal.list({ limit: 1 }).length > 0 ||
      store.db.prepare('SELECT cursor FROM executor_automations WHERE cursor IS NOT NULL').get() !==
        undefined;

    let d = daemon();
    await waitFor(ready, 30_000, 'the first pass');
    let killed = false;
    for (let i = 0; i < 50; i += 1) {
      await h.advance(MINUTE);
      await waitFor(
        async () => {
          const runs = (await h!.sb.control.state()).runs;
          return killed ? true : total(runs) >= i + 1 || d.child.exitCode !== null;
        },
        20_000,
        `run ${i + 1}`,
      );
      if (i === 19) {
        await waitFor(
          async () => ((await h!.sb.control.state()).runs.running ?? 0) > 0,
          20_000,
          'a run in progress',
        );
        d.child.kill('SIGKILL');
        await new Promise((r) => d.child.once('exit', r));
        killed = true;
      }
      if (i === 22) {
        // Three occurrences fell due while it was down; the restarted executor catches up (policy "all").
        d = daemon();
        killed = false;
        await waitFor(async () => total((await h!.sb.control.state()).runs) >= 23, 30_000, 'the catch-up');
      }
    }
    await waitFor(
      async () => {
        const runs = (await h!.sb.control.state()).runs;
        return total(runs) === 50 && !runs.running;
      },
      30_000,
      'all 50 runs to end',
    );
    d.child.kill('SIGTERM');
    const code = await new Promise<number | null>((r) => d.child.once('exit', (c) => r(c)));
    expect(code, d.log()).toBe(0);

    const state = await h.sb.control.state();
    expect(total(state.runs)).toBe(50);
    expect(state.deliveries.draft ?? 0).toBe(state.runs.completed ?? 0);
    expect((state.runs.completed ?? 0) + (state.runs.failed ?? 0)).toBe(50);
    const rows = journal.list({ limit: 1000 }).filter((r) => r.run_id);
    expect(new Set(rows.map((r) => r.scheduled_for)).size).toBe(50);
    expect(new Set(rows.map((r) => r.run_id)).size).toBe(50);
    // The run that was cut off is explained: resumed from its output, or failed with the reason.
    const recovered = rows.filter((r) => journal.steps(r.id).some((s) => s.step_id === 'recover'));
    expect(recovered.length).toBeGreaterThanOrEqual(1);
    for (const r of rows.filter((x) => x.state === 'failed'))
      expect(r.reason_code).toBe('executor_restarted');
    store.close();

    // `postdesk runs` tells the story from the same store.
    const list = await cli(dataDir, ['runs', 'list', '--json', '--limit', '100']);
    expect(list.code).toBe(0);
    const listed = (JSON.parse(list.stdout) as { runs: { run_id: string; state: string }[] }).runs;
    expect(listed).toHaveLength(50);
    const one = recovered[0] as (typeof rows)[number];
    // The sandbox's run ids are time-ordered (UUIDv7): runs made in the same moment share their first characters.
    const shown = await cli(dataDir, ['runs', 'show', (one.run_id as string).slice(0, 30)]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(one.run_id as string);
    expect(shown.stdout).toMatch(/recover\W+info\W+executor restarted; run was at/);
    if (one.state === 'failed')
      expect(shown.stdout).toContain('executor_restarted: the executor stopped while');
    // A run cut off before its agent printed anything has no log to show.
    if (one.run_dir && existsSync(join(one.run_dir, 'run.log')))
      expect(shown.stdout).toMatch(/log \(last \d+ lines\)/);
  });

  it('when the service goes away mid-run, the run waits at upload and resumes on a later pass', async () => {
    h = await startHarness();
    const ex = h.another({}).executor;
    await ex.runOnce();
    // Every run-scoped call fails (503) from here: the start works, the upload cannot.
    await h.sb.control.faults({ error_rate: 1, paths: ['/api/agent/runs/'] });
    await h.advance(60 * MINUTE);
    await ex.runOnce();
    expect(ex.journal.list()[0]?.state).toBe('uploading');
    expect((await h.sb.control.state()).runs).toEqual({ running: 1 });
    await h.sb.control.faults({});
    await ex.runOnce();
    const row = ex.journal.list()[0];
    expect(row?.state).toBe('completed');
    expect(
      ex.journal.steps(row?.id as string).map((s) => `${s.step_id} ${s.status} ${s.message ?? ''}`),
    ).toContain('recover info service reachable again; run was at uploading (upload)');
    expect((await h.sb.control.state()).runs).toEqual({ completed: 1 });
    expect((await h.sb.control.state()).deliveries).toEqual({ draft: 1 });
  });

  it('a failure the service could not be told of is told on a later pass, so no run hangs there', async () => {
    h = await startHarness();
    const ex = h.another({ agent: agentCommand('--mode', 'fail') }).executor;
    await ex.runOnce();
    await h.sb.control.faults({ error_rate: 1, paths: ['/api/agent/runs/'] });
    await h.advance(60 * MINUTE);
    await ex.runOnce();
    expect(ex.journal.list()[0]?.state).toBe('failing');
    expect((await h.sb.control.state()).runs).toEqual({ running: 1 });
    await h.sb.control.faults({});
    await ex.runOnce();
    expect(ex.journal.list()[0]?.state).toBe('failed');
    const [run] = await h.runs(ex);
    expect(run?.state).toBe('failed');
    expect(run?.error).toMatch(/^agent exited with code 3/);
  });
});
