/**
 * The folder agent reads a picture's caption from a sidecar beside it. A sidecar that is a link out of the
 * folder (planted by whoever else writes there: a shared or synced folder, an agent given the folder) must not
 * be read: its target's text would become a public caption.
 */
import { link, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runFolderAgent } from '../../src-main/core/executor/agents/folder-agent';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

let dir: string;
let folder: string;
let secret: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pd-folder-links-'));
  folder = join(dir, 'chosen');
  await mkdir(folder);
  secret = join(dir, 'private.txt');
  await writeFile(secret, "PRIVATE: the user's own notes");
});
afterEach(() => rm(dir, { recursive: true, force: true }));

for (const kind of ['symlink', 'hardlink'] as const) {
  it(`a caption sidecar that is a ${kind} out of the folder is not read`, async () => {
    await writeFile(join(folder, 'a.png'), PNG);
    if (kind === 'symlink') await symlink(secret, join(folder, 'a.png.txt'));
    else await link(secret, join(folder, 'a.png.txt'));
    // The attack's condition: through the sidecar's name, the private text is readable.
    expect(await readFile(join(folder, 'a.png.txt'), 'utf8')).toMatch(/PRIVATE/);
    const outputFile = join(dir, 'output.json');
    const said: string[] = [];
    const r = await runFolderAgent({ folder, outputFile, say: (l) => said.push(l) });
    expect(r).toMatchObject({ ok: true, file: 'a.png' });
    const output = JSON.parse(await readFile(outputFile, 'utf8')) as { caption: string };
    expect(output.caption).toBe('');
    expect(await readFile(outputFile, 'utf8')).not.toMatch(/PRIVATE/);
    expect(said.join('\n')).not.toMatch(/PRIVATE/);
  });
}

it('a sidecar linked to another file inside the folder is read by its real path', async () => {
  await writeFile(join(folder, 'a.png'), PNG);
  await writeFile(join(folder, 'captions.txt'), 'Shared caption');
  await symlink(join(folder, 'captions.txt'), join(folder, 'a.png.txt'));
  const outputFile = join(dir, 'output.json');
  expect(await runFolderAgent({ folder, outputFile })).toMatchObject({ ok: true, file: 'a.png' });
  expect(JSON.parse(await readFile(outputFile, 'utf8'))).toMatchObject({ caption: 'Shared caption' });
});

it('picks only a file every target accepts: an MP4 for a TikTok automation, not the PNG before it', async () => {
  await writeFile(join(folder, 'a.png'), PNG);
  await writeFile(join(folder, 'b.mp4'), Buffer.from('not really a video, but named as one'));
  const outputFile = join(dir, 'output.json');
  const r = await runFolderAgent({ folder, outputFile, accept: ['video/mp4'] });
  expect(r).toMatchObject({ ok: true, file: 'b.mp4' });
});
