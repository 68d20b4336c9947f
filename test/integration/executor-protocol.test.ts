import { execFileSync } from 'node:child_process';
import { appendFileSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src-shared/api';
import { ExecutorStatus } from '../../src-shared/ipc/executor';
import { RunDetail, RunRecord } from '../../src-shared/ipc/runs';
import { executorPortFor } from '../../src-main/core/bridge/executor-port';
import { IDS, agentCommand, automation, startHarness, type Harness } from './executor-harness';
import { scaled } from '../helpers/timeouts';

const HOUR = 3_600_000;
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/**
 * An MP4 just over the 64 MiB direct-upload limit, made cheaply: a real 2-second H.264/AAC clip followed
 * by a 65 MiB `free` box (sparse on disk). It must be re-encoded to fit, which the media pipeline does at
 * the bitrate it computes for 64 MiB. Real high-bitrate noise took ~20 s to make and compress.
 */
function overLimitMp4(dir: string): string {
  const file = join(dir, 'big.mp4');
  execFileSync('ffmpeg', [
    '-y',
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=320x240:rate=25',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:sample_rate=44100',
    '-t',
    '2',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-shortest',
    '-movflags',
    '+faststart',
    file,
  ]);
  const padding = 65 * 1024 * 1024;
  const start = statSync(file).size;
  const header = Buffer.alloc(8);
  header.writeUInt32BE(padding, 0);
  header.write('free', 4, 'ascii');
  appendFileSync(file, header);
  truncateSync(file, start + padding);
  return file;
}

async function waitFor(cond: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const until = Date.now() + scaled(ms);
  while (!(await cond())) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('executor runner protocol against the sandbox', () => {
  it('draft mode sends only caption and media', async () => {
    h = await startHarness();
    await h.executor.runOnce();
    await h.advance(HOUR);
    await h.executor.runOnce();
    const [run] = await h.runs();
    expect(run?.state).toBe('completed');
    expect(Object.keys(run?.output ?? {}).sort()).toEqual(['caption', 'media_urls']);
    expect(run?.output?.caption).toBe(`Post for ${run?.scheduled_for}`);
    expect((await h.sb.control.state()).deliveries).toEqual({ draft: 1 });

    // The same run as the UI sees it through the bridge: shapes of src-shared/ipc, nothing secret.
    const executor = h.executor;
    const port = executorPortFor(() => executor);
    const records = await port.listRuns({});
    expect(records.map((r) => RunRecord.parse(r).state)).toEqual(['completed']);
    const detail = RunDetail.parse(await port.getRun(records[0]?.id as string));
    expect(detail.steps.map((s) => s.step_id)).toContain('upload');
    expect(detail.logs.some((l) => l.stream === 'stdout' && l.text.startsWith('::step render'))).toBe(true);
    expect(JSON.stringify(detail)).not.toMatch(/pdrt_|pdct_/);
    expect(ExecutorStatus.parse(await port.status())).toMatchObject({ state: 'idle', active_runs: 0 });
  });

  it('auto mode direct-uploads an over-limit MP4 to tiktok and youtube after compressing it', async () => {
    h = await startHarness({
      automations: [
        automation({
          execution_mode: 'auto',
          targets: [
            { social_account_id: IDS.accounts.tiktok, platform: 'tiktok' },
            { social_account_id: IDS.accounts.youtube, platform: 'youtube' },
          ],
        }),
      ],
    });
    const big = overLimitMp4(h.dir);
    expect(statSync(big).size).toBeGreaterThan(LIMITS.directUploadBytes);
    const ex = h.another({
      agent: agentCommand('--mode', 'video', '--file', big),
      runTimeoutMs: 30_000,
    }).executor;
    await ex.runOnce();
    await h.advance(HOUR);
    await ex.runOnce();
    const [run] = await h.runs(ex);
    const row = ex.journal.list()[0];
    expect(row?.reason).toBeNull();
    expect(run?.state).toBe('completed');
    const published = (run?.result as { published_targets: { platform: string; direct_upload_id: string }[] })
      .published_targets;
    expect(published.map((p) => p.platform).sort()).toEqual(['tiktok', 'youtube']);
    const events = run?.events.map((e) => `${e.step_id} ${e.status} ${e.message ?? ''}`.trim()) ?? [];
    expect(events).toContain('direct-upload started tiktok, youtube');
    expect(
      events.some((e) =>
        /^direct-upload info compressed 65\.\d MiB to \d+(\.\d)? (bytes|KiB|MiB) to fit the 64 MiB/.test(e),
      ),
    ).toBe(true);
    expect(events).toContain('direct-upload info tiktok published');
    expect(events).toContain('direct-upload info youtube published');
    expect(events).toContain('direct-upload completed 2 target(s)');
    // Only tiktok and youtube targets: nothing goes through run media, and no post is made.
    expect(events.some((e) => e.startsWith('upload'))).toBe(false);
  });

  it('an expired social account fails the run with a message that says what to do', async () => {
    h = await startHarness({
      accounts: { token_expired: true },
      automations: [
        automation({
          execution_mode: 'auto',
          targets: [{ social_account_id: IDS.accounts.tiktok, platform: 'tiktok' }],
        }),
      ],
    });
    const clip = join(h.dir, 'clip.mp4');
    execFileSync('ffmpeg', [
      '-y',
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=64x48:rate=10',
      '-t',
      '1',
      '-pix_fmt',
      'yuv420p',
      clip,
    ]);
    const ex = h.another({ agent: agentCommand('--mode', 'video', '--file', clip) }).executor;
    await ex.runOnce();
    await h.advance(HOUR);
    await ex.runOnce();
    const [run] = await h.runs(ex);
    expect(run?.state).toBe('failed');
    expect(run?.error).toContain('reconnected');
    expect(ex.journal.list()[0]?.reason_code).toBe('direct_upload_failed');
  });

  it('a paused automation runs nothing and records every occurrence as paused', async () => {
    h = await startHarness({ automations: [automation({ status: 'paused' })] });
    await h.executor.runOnce();
    for (let i = 0; i < 3; i += 1) {
      await h.advance(HOUR);
      await h.executor.runOnce();
    }
    expect((await h.sb.control.state()).runs).toEqual({});
    const rows = h.executor.journal.list();
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.state === 'not_run' && r.reason_code === 'automation_paused')).toBe(true);
  });

  it('a removed automation stops running; one removed mid-run fails with AUTOMATION_REMOVED', async () => {
    h = await startHarness();
    const ex = h.another({ agent: agentCommand('--mode', 'slow', '--ms', '800') }).executor;
    await ex.runOnce();
    await h.advance(HOUR);
    await ex.tick();
    await waitFor(() => ex.journal.list()[0]?.step === 'agent');
    const { id: _id, ...body } = automation({ status: 'removed' });
    expect((await h.sb.control.putAutomation(IDS.automation, body)).status).toBe(200);
    await ex.idle();
    const first = ex.journal.list()[0];
    expect(first?.state).toBe('failed');
    expect(first?.reason_code).toBe('automation_removed');
    const [run] = await h.runs(ex);
    expect(run?.state).toBe('failed');
    expect(run?.error).toContain('AUTOMATION_REMOVED');
    await h.advance(HOUR);
    await ex.runOnce();
    expect((await h.sb.control.state()).runs).toEqual({ failed: 1 });
    // A removed automation has no more occurrences: nothing is started, nothing new is recorded.
    expect(ex.journal.list()).toHaveLength(1);
  });

  it('a stale revision stops the run, re-syncs, acks the new revision and runs it next time', async () => {
    h = await startHarness();
    const ex = h.another({ agent: agentCommand('--mode', 'slow', '--ms', '800') }).executor;
    await ex.runOnce();
    await h.advance(HOUR);
    await ex.tick();
    await waitFor(() => ex.journal.list()[0]?.step === 'agent');
    const { id: _id, ...body } = automation({ instructions: 'Edited while running.' });
    expect((await h.sb.control.putAutomation(IDS.automation, body)).body.revision).toBe(2);
    await ex.idle();
    expect(ex.journal.list()[0]?.reason_code).toBe('revision_stale');
    await h.advance(HOUR);
    await ex.runOnce();
    const runs = await h.runs(ex);
    expect(runs.map((r) => r.state).sort()).toEqual(['completed', 'failed']);
    const done = runs.find((r) => r.state === 'completed');
    expect(done?.idempotency_key).toMatch(new RegExp(`^${IDS.automation}:2:`));
    const list = (await h.sb.api('GET', '/api/automations')).body as {
      automations: { acked_revision: number }[];
    };
    expect(list.automations[0]?.acked_revision).toBe(2);
  });
});
