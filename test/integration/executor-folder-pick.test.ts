/**
 * The folder agent's file is used only once the run that carried it completed (issue: a file is used once it is
 * really published). A real folder, the real executor and the sandbox over HTTP: a run that fails after the
 * folder agent picked its file leaves the file for the next occurrence, and its run log says so.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { inProcessFolderAgent, type AgentRunner } from '../../src-main/core/executor/agent-runner';
import type { Executor } from '../../src-main/core/executor/executor';
import { FOLDER_STATE_FILE } from '../../src-main/core/executor/agents/folder-agent';
import { mediaFixtures } from '../helpers/media-fixtures';
import { AUTOMATION_ID, IDS, automation, startHarness, type Harness } from './executor-harness';

const HOUR = 3_600_000;
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** a.png and b.png, distinct bytes, with their captions. */
function folderOf(dir: string, captionA = 'Picture A'): string {
  const folder = join(dir, 'queue');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'a.png'), Buffer.concat([PNG, Buffer.from('#a')]));
  writeFileSync(join(folder, 'a.txt'), captionA);
  writeFileSync(join(folder, 'b.png'), Buffer.concat([PNG, Buffer.from('#b')]));
  writeFileSync(join(folder, 'b.txt'), 'Picture B');
  return folder;
}

const picks = (folder: string): { file: string; state?: string }[] => {
  try {
    return (
      JSON.parse(readFileSync(join(folder, FOLDER_STATE_FILE), 'utf8')) as {
        published: { file: string; state?: string }[];
      }
    ).published;
  } catch {
    return [];
  }
};

/** The run log of the journal's only run for this occurrence. */
const runLog = (ex: Executor, scheduledFor: string): string => {
  const row = ex.journal.list({ limit: 100 }).find((r) => r.scheduled_for === scheduledFor);
  return readFileSync(join(row?.run_dir as string, 'run.log'), 'utf8');
};

async function occurrence(harness: Harness, ex: Executor): Promise<string> {
  const now = await harness.advance(HOUR);
  await ex.runOnce();
  return new Date(Math.floor(now.getTime() / HOUR) * HOUR).toISOString();
}

describe('folder agent: a file is used once its run completed', () => {
  it('the service refuses the completion (the automation was edited mid-run): the file is published by the next occurrence', async () => {
    h = await startHarness();
    const folder = folderOf(h.dir);
    const harness = h;
    const pick = inProcessFolderAgent();
    let edits = 0;
    // The user edits the automation while its first run is under way: the service then refuses that run's
    // completion (REVISION_STALE), after the file was picked and uploaded.
    const editingMidRun: AgentRunner = async (inv) => {
      const exit = await pick(inv);
      if (edits === 0) {
        edits += 1;
        const { id: _id, ...body } = automation({ instructions: 'Post the next picture, edited.' });
        const res = await harness.sb.control.putAutomation(AUTOMATION_ID, body);
        expect(res.status).toBe(200);
      }
      return exit;
    };
    const ex = h.another({
      agentType: 'folder',
      agent: undefined,
      folder,
      agentFor: () => editingMidRun,
    }).executor;
    await ex.runOnce();

    const first = await occurrence(h, ex);
    const failed = (await h.runs(ex)).find((r) => r.scheduled_for === first);
    expect(failed?.state).toBe('failed');
    expect(failed?.error).toMatch(/edited while the run was in progress/);
    expect(runLog(ex, first)).toMatch(
      /a\.png was not published: it stays in the folder for the next occurrence/,
    );
    expect(picks(folder).map((p) => p.file)).toEqual([]);

    const second = await occurrence(h, ex);
    const done = (await h.runs(ex)).find((r) => r.scheduled_for === second);
    expect(done?.state).toBe('completed');
    // The file the failed run carried, not the one after it.
    expect(JSON.stringify(done?.output)).toContain('Picture A');
    expect(runLog(ex, second)).toMatch(/a\.png is published: the folder agent will not pick it again/);
    expect(picks(folder)).toMatchObject([{ file: 'a.png', state: 'published' }]);
    expect((await h.sb.control.state()).runs).toEqual({ failed: 1, completed: 1 });
  });

  it("the agent's output breaks a limit (a caption over 2,200 characters): the file is given back, and published once the caption is fixed", async () => {
    h = await startHarness();
    const folder = folderOf(h.dir, 'x'.repeat(2_300));
    const ex = h.another({ agentType: 'folder', agent: undefined, folder }).executor;
    await ex.runOnce();

    const first = await occurrence(h, ex);
    const failed = (await h.runs(ex)).find((r) => r.scheduled_for === first);
    expect(failed?.state).toBe('failed');
    expect(failed?.error).toMatch(/caption is over the limit of 2200/);
    expect(runLog(ex, first)).toMatch(
      /a\.png was not published: it stays in the folder for the next occurrence/,
    );
    expect(picks(folder)).toEqual([]);

    writeFileSync(join(folder, 'a.txt'), 'Picture A, shorter');
    const second = await occurrence(h, ex);
    const done = (await h.runs(ex)).find((r) => r.scheduled_for === second);
    expect(done?.state).toBe('completed');
    expect(JSON.stringify(done?.output)).toContain('Picture A, shorter');
    expect(picks(folder)).toMatchObject([{ file: 'a.png', state: 'published' }]);
  });
});

describe('folder agent: only what the targets accept', () => {
  it('an auto-mode TikTok automation gets the folder’s MP4, not the PNG before it by name', async () => {
    h = await startHarness({
      automations: [
        automation({
          execution_mode: 'auto',
          targets: [{ social_account_id: IDS.accounts.tiktok, platform: 'tiktok' }],
        }),
      ],
    });
    const folder = folderOf(h.dir);
    copyFileSync(mediaFixtures().mp4, join(folder, 'c.mp4'));
    const ex = h.another({ agentType: 'folder', agent: undefined, folder }).executor;
    await ex.runOnce();
    const at = await occurrence(h, ex);
    const run = (await h.runs(ex)).find((r) => r.scheduled_for === at);
    expect(run?.error ?? '').not.toMatch(/needs an MP4/);
    expect(runLog(ex, at)).toMatch(/folder\.pick completed c\.mp4/);
    expect(picks(folder).map((p) => p.file)).toEqual(['c.mp4']);
  });
});
