import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  FOLDER_STATE_FILE,
  parseSidecar,
  runFolderAgent,
  settleFolderPick,
} from '../../../../src-main/core/executor/agents/folder-agent';
import { POSTDESK_BIN } from '../../../helpers/build-cli';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'folder-agent-'));
  dirs.push(d);
  return d;
}
const readJson = (f: string) => JSON.parse(readFileSync(f, 'utf8')) as Record<string, unknown>;

describe('the folder agent', () => {
  it('publishes the next file by name, with its caption sidecar, and remembers it', async () => {
    const folder = tmp();
    const run = tmp();
    writeFileSync(join(folder, 'b.png'), 'png');
    writeFileSync(join(folder, 'a.mp4'), 'mp4');
    writeFileSync(join(folder, 'a.txt'), 'title: Launch day\nWe shipped it.\n#launch');
    writeFileSync(join(folder, 'notes.md'), 'not media');
    const out = join(run, 'output.json');
    const lines: string[] = [];
    const first = await runFolderAgent({
      folder,
      outputFile: out,
      runId: 'run-1',
      say: (l) => lines.push(l),
    });
    expect(first).toEqual({ ok: true, file: 'a.mp4', remaining: 1 });
    expect(readJson(out)).toEqual({
      caption: 'We shipped it.\n#launch',
      title: 'Launch day',
      media: [join(folder, 'a.mp4')],
      metadata: { agent: 'folder', file: 'a.mp4' },
    });
    expect(lines).toEqual([
      `::step folder.pick started looking for the next file in ${folder}`,
      '::step folder.pick completed a.mp4 (1 left)',
    ]);
    const second = await runFolderAgent({ folder, outputFile: out, runId: 'run-2' });
    expect(second).toEqual({ ok: true, file: 'b.png', remaining: 0 });
    expect(readJson(out)).toMatchObject({ caption: '', title: 'b', media: [join(folder, 'b.png')] });
    const third = await runFolderAgent({ folder, outputFile: out });
    expect(third.ok).toBe(false);
    expect(!third.ok && third.message).toMatch(/^no unpublished media left in .* \(2 published/);
    const state = readJson(join(folder, '.postdesk-folder-agent.json')) as {
      published: { file: string; run_id: string }[];
    };
    expect(state.published.map((p) => [p.file, p.run_id])).toEqual([
      ['a.mp4', 'run-1'],
      ['b.png', 'run-2'],
    ]);
  });

  it('holds a picked file as pending: a failed run gives it back, a completed one uses it for good', async () => {
    const folder = tmp();
    const out = join(tmp(), 'output.json');
    writeFileSync(join(folder, 'a.png'), 'png');
    writeFileSync(join(folder, 'b.png'), 'png');
    const stateOf = () =>
      (readJson(join(folder, FOLDER_STATE_FILE)) as { published: { file: string; state?: string }[] })
        .published;
    expect(await runFolderAgent({ folder, outputFile: out, runId: 'run-1' })).toMatchObject({
      file: 'a.png',
    });
    expect(stateOf()).toMatchObject([{ file: 'a.png', state: 'pending' }]);
    // While run-1 is in flight, another run takes the next file, not the same one.
    expect(await runFolderAgent({ folder, outputFile: out, runId: 'run-2' })).toMatchObject({
      file: 'b.png',
    });
    expect(await settleFolderPick({ folder, file: 'a.png', outcome: 'failed' })).toBe(true);
    expect(stateOf().map((e) => e.file)).toEqual(['b.png']);
    // The next occurrence publishes the file the failed run could not.
    expect(await runFolderAgent({ folder, outputFile: out, runId: 'run-3' })).toMatchObject({
      file: 'a.png',
    });
    expect(await settleFolderPick({ folder, file: 'a.png', outcome: 'published' })).toBe(true);
    expect(await settleFolderPick({ folder, file: 'b.png', outcome: 'published' })).toBe(true);
    expect(stateOf()).toMatchObject([
      { file: 'b.png', state: 'published' },
      { file: 'a.png', state: 'published' },
    ]);
    expect((await runFolderAgent({ folder, outputFile: out })).ok).toBe(false);
    // Only a pending pick is settled: a published file is not given back by a late failure.
    expect(await settleFolderPick({ folder, file: 'a.png', outcome: 'failed' })).toBe(false);
  });

  it('never hands the same file to two runs at once', async () => {
    const folder = tmp();
    for (let i = 0; i < 6; i += 1) writeFileSync(join(folder, `${i}.jpg`), 'x');
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => runFolderAgent({ folder, outputFile: join(tmp(), `o${i}.json`) })),
    );
    const files = results.map((r) => (r.ok ? r.file : null));
    expect(new Set(files).size).toBe(6);
  });

  it('reads sidecars without a title', () => {
    expect(parseSidecar('Just a caption\r\n')).toEqual({ caption: 'Just a caption' });
  });

  it('runs as an agent command: `postdesk executor folder-agent --folder DIR`', () => {
    const folder = tmp();
    const run = tmp();
    writeFileSync(join(folder, 'x.png'), 'png');
    writeFileSync(join(run, 'run.json'), JSON.stringify({ run_id: 'run-9' }));
    const res = spawnSync(process.execPath, [POSTDESK_BIN, 'executor', 'folder-agent', '--folder', folder], {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        POSTDESK_RUN_DIR: run,
        POSTDESK_OUTPUT: join(run, 'output.json'),
      },
      encoding: 'utf8',
    });
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toContain('::step folder.pick completed x.png (0 left)');
    expect(readJson(join(run, 'output.json'))).toMatchObject({ media: [join(folder, 'x.png')] });
    const again = spawnSync(
      process.execPath,
      [POSTDESK_BIN, 'executor', 'folder-agent', '--folder', folder],
      {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, POSTDESK_RUN_DIR: run },
        encoding: 'utf8',
      },
    );
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/no unpublished media left/);
  });
});

const FOLDER_AGENT = resolve(
  import.meta.dirname,
  '../../../../src-main/core/executor/agents/folder-agent.ts',
);
const REPO = resolve(import.meta.dirname, '../../../..');
/** Short enough for a test, long enough that a lock not refreshed for it has gone stale. */
const TIMING = { staleMs: 2000, waitMs: 20_000 };

/**
 * Another process holding the folder's lock through the folder agent's own code: it prints `locked`, then
 * either holds the lock for `holdMs` and writes `marker` just before letting go, or dies by SIGKILL holding it.
 */
function lockHolder(stateFile: string, o: { holdMs: number; marker: string } | 'die'): ChildProcess {
  const body =
    o === 'die'
      ? `console.log('locked'); process.kill(process.pid, 'SIGKILL'); await new Promise(() => {});`
      : `console.log('locked');
         await new Promise((r) => setTimeout(r, ${o.holdMs}));
         require('node:fs').writeFileSync(${JSON.stringify(o.marker)}, 'done');`;
  const code = `import(${JSON.stringify(FOLDER_AGENT)}).then((m) =>
    m.withStateLock(${JSON.stringify(stateFile)}, async () => { ${body} }, ${JSON.stringify(TIMING)}),
  ).then(() => process.exit(0), (err) => { console.error(err.message); process.exit(1); });`;
  return spawn(process.execPath, ['--import', 'tsx', '-e', code], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

async function untilLocked(child: ChildProcess): Promise<void> {
  let out = '';
  child.stdout?.on('data', (b: Buffer) => (out += b.toString()));
  const end = Date.now() + 15_000;
  while (!out.includes('locked')) {
    if (Date.now() > end || child.exitCode !== null) throw new Error(`the lock holder did not lock: ${out}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("the folder agent's lock", () => {
  it('is never broken while its holder lives, however long it holds it', async () => {
    const folder = tmp();
    writeFileSync(join(folder, 'a.jpg'), 'x');
    const marker = join(tmp(), 'holder-done');
    const stateFile = join(folder, FOLDER_STATE_FILE);
    // Held for three stale periods, and longer than the old lock's five-second break.
    const holder = lockHolder(stateFile, { holdMs: 6000, marker });
    const exited = once(holder, 'exit');
    await untilLocked(holder);
    // The lock sits beside the user's media and is private, like everything Postdesk writes.
    expect(statSync(`${stateFile}.lock`).mode & 0o777).toBe(0o700);

    const out = join(tmp(), 'output.json');
    const result = await runFolderAgent({ folder, outputFile: out, lock: TIMING });

    // The waiter chose its file only once the holder had finished and let go.
    expect(existsSync(marker)).toBe(true);
    expect(statSync(out).mtimeMs).toBeGreaterThanOrEqual(statSync(marker).mtimeMs);
    expect(result).toEqual({ ok: true, file: 'a.jpg', remaining: 0 });
    // The holder's lock was never taken from it (a lost lock makes withStateLock fail).
    const [code] = (await exited) as [number | null];
    expect(code).toBe(0);
  });

  it('is taken over once it goes stale after its holder died holding it', async () => {
    const folder = tmp();
    writeFileSync(join(folder, 'a.jpg'), 'x');
    const stateFile = join(folder, FOLDER_STATE_FILE);
    const holder = lockHolder(stateFile, 'die');
    const [, signal] = (await once(holder, 'exit')) as [number | null, NodeJS.Signals | null];
    // The fault happened: the holder died by SIGKILL and its lock is still there.
    expect(signal).toBe('SIGKILL');
    expect(existsSync(`${stateFile}.lock`)).toBe(true);

    const result = await runFolderAgent({ folder, outputFile: join(tmp(), 'output.json'), lock: TIMING });
    expect(result).toEqual({ ok: true, file: 'a.jpg', remaining: 0 });
    expect(existsSync(`${stateFile}.lock`)).toBe(false);
  });

  it('says the folder is busy, and chooses nothing, when a live holder keeps it past the wait', async () => {
    const folder = tmp();
    writeFileSync(join(folder, 'a.jpg'), 'x');
    const stateFile = join(folder, FOLDER_STATE_FILE);
    const holder = lockHolder(stateFile, { holdMs: 4000, marker: join(tmp(), 'm') });
    const exited = once(holder, 'exit');
    await untilLocked(holder);
    const lines: string[] = [];
    const result = await runFolderAgent({
      folder,
      outputFile: join(tmp(), 'output.json'),
      lock: { staleMs: TIMING.staleMs, waitMs: 1000 },
      say: (l) => lines.push(l),
    });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toMatch(/^another run has been using the folder for over 1 s/);
    expect(lines.at(-1)).toMatch(/^::step folder\.pick failed another run has been using the folder/);
    expect(existsSync(stateFile)).toBe(false);
    const [code] = (await exited) as [number | null];
    expect(code).toBe(0);
  });
});
