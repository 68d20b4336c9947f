import { randomUUID } from 'node:crypto';
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WsBridge } from '../../src-shared/ipc/ws-client';
import type { RunRecord, RunStepEvent } from '../../src-shared/ipc/runs';
import type { RunningWeb } from '../../src-main/cli/web/run-web';
import { startTestWebHost, type TestWebHost } from '../helpers/web-host';
import { DEMO_ACCOUNTS, DEMO_OWNER_ID } from '../../src-sandbox/demo-fixture';

/** The automations screen's path through `postdesk web --sandbox`: a run started from the page, its steps live. */

let host: TestWebHost;
let web: RunningWeb;
let dir: string;
let page: WsBridge;

beforeAll(async () => {
  // With --sandbox the executor runs too: the page's "Run now" reaches a real one.
  host = await startTestWebHost('postdesk-web-runs-', { executor: true });
  ({ web, dir, page } = host);
});
afterAll(() => host?.close());

describe('automations and runs over postdesk web', () => {
  it('shows each automation with its next occurrence, runs one now and streams its steps', async () => {
    const { bridge } = page;
    const folder = join(dir, 'clips');
    await mkdir(folder);
    await copyFile(new URL('../../resources/icon.png', import.meta.url), join(folder, 'tip.png'));
    const id = randomUUID();
    const put = await fetch(`${web.sandboxUrl}/_sandbox/automations/${id}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        owner_id: DEMO_OWNER_ID,
        name: 'Folder tip',
        status: 'active',
        execution_mode: 'draft',
        queue: 'local',
        schedule: { cron: '0 9 * * *', timezone: 'UTC' },
        instructions: 'Post the next picture.',
        targets: [{ social_account_id: DEMO_ACCOUNTS.instagram, platform: 'instagram' }],
      }),
    });
    expect(put.status).toBe(200);
    // The folder is the user's own setting on this computer (as `postdesk config set` writes it), not the page's.
    await web.session.settings.update({ automation_folders: [{ automation_id: id, folder }] });

    expect((await bridge.connection.useOffline()).ok).toBe(true);
    const list = await bridge.automations.list();
    expect(list.ok).toBe(true);
    const mine = list.ok ? list.value.automations.find((a) => a.id === id) : undefined;
    expect(mine?.next_occurrence).toMatch(/T09:00:00/);

    const steps: RunStepEvent[] = [];
    const changes: RunRecord[] = [];
    const offSteps = bridge.runs.onDidStepRun((e) => steps.push(e));
    const finished = new Promise<RunRecord>((resolve) => {
      bridge.runs.onDidChange(({ run }) => {
        changes.push(run);
        if (run.automation_id === id && ['completed', 'failed'].includes(run.state)) resolve(run);
      });
    });

    // the executor starts once the page is connected; wait for it to be up
    for (let i = 0; i < 50; i++) {
      const s = await bridge.executor.status();
      if (s.ok && s.value.state !== 'stopped') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const started = await bridge.automations.runNow({ id });
    expect(started.ok).toBe(true);
    if (!started.ok) return;
    const done = await finished;
    offSteps();

    expect(done.id).toBe(started.value.run.id);
    expect(done.state).toBe('completed');
    const live = steps.filter((s) => s.run_id === done.id);
    expect(live.length).toBeGreaterThan(1);
    const detail = await bridge.runs.get({ id: done.id });
    expect(detail.ok).toBe(true);
    if (!detail.ok) return;
    expect(detail.value.steps.map((s) => s.step_id)).toEqual(live.map((s) => s.step.step_id));
    const runs = await bridge.runs.list({ automation_id: id });
    expect(runs.ok && runs.value.runs[0]?.id).toBe(done.id);
  });

  it('pauses and resumes the executor from the page', async () => {
    const { bridge } = page;
    expect(await bridge.executor.pause()).toMatchObject({ ok: true, value: { state: 'paused' } });
    // Nothing is in flight once the run above has finished, so the executor waits for the next occurrence.
    expect(await bridge.executor.resume()).toMatchObject({ ok: true, value: { state: 'idle' } });
  });
});
