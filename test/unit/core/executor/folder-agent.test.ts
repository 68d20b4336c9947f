import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseSidecar, runFolderAgent } from '../../../../src-main/core/executor/agents/folder-agent';

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
    const entry = resolve(import.meta.dirname, '../../../integration/executor-cli-entry.ts');
    const res = spawnSync(
      process.execPath,
      ['--import', 'tsx', entry, 'executor', 'folder-agent', '--folder', folder],
      {
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          POSTDESK_RUN_DIR: run,
          POSTDESK_OUTPUT: join(run, 'output.json'),
        },
        encoding: 'utf8',
      },
    );
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toContain('::step folder.pick completed x.png (0 left)');
    expect(readJson(join(run, 'output.json'))).toMatchObject({ media: [join(folder, 'x.png')] });
    const again = spawnSync(
      process.execPath,
      ['--import', 'tsx', entry, 'executor', 'folder-agent', '--folder', folder],
      {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, POSTDESK_RUN_DIR: run },
        encoding: 'utf8',
      },
    );
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/no unpublished media left/);
  });
});
