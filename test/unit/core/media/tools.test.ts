import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ToolFailedError,
  ToolNotFoundError,
  findOnPath,
  findTool,
  runTool,
} from '../../../../src-main/core/media/tools';

describe('findTool', () => {
  const dir = mkdtempSync(join(tmpdir(), 'postdesk-tools-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prefers a setting, then the npm binary, then PATH', () => {
    const npm = findTool('ffmpeg', {}, { PATH: '' });
    expect(npm.source).toBe('npm');
    expect(npm.path).toContain('@ffmpeg-installer');

    const fake = join(dir, 'my-ffmpeg');
    symlinkSync(npm.path, fake);
    expect(findTool('ffmpeg', { ffmpegPath: fake }, { PATH: '' })).toMatchObject({
      source: 'setting',
      path: fake,
    });
    expect(findTool('ffmpeg', {}, { PATH: '', POSTDESK_FFMPEG_PATH: fake })).toMatchObject({
      source: 'setting',
    });
  });

  it('refuses a setting that points at nothing rather than guessing', () => {
    expect(() => findTool('ffprobe', { ffprobePath: join(dir, 'nope') })).toThrow(ToolNotFoundError);
  });

  it('searches PATH in order and skips files that cannot run', () => {
    const blocked = join(dir, 'blocked');
    const runnable = join(dir, 'runnable');
    mkdirSync(blocked);
    mkdirSync(runnable);
    writeFileSync(join(blocked, 'ffprobe'), 'not runnable', { mode: 0o644 });
    writeFileSync(join(runnable, 'ffprobe'), '#!/bin/sh\n', { mode: 0o755 });
    expect(findOnPath('ffprobe', { PATH: `${blocked}:${runnable}` })).toBe(join(runnable, 'ffprobe'));
    expect(findOnPath('ffprobe', { PATH: blocked })).toBeNull();
  });
});

describe('runTool', () => {
  it('returns stdout and turns a failure into its stderr', async () => {
    const ffprobe = findTool('ffprobe');
    expect(await runTool(ffprobe, ['-version'])).toMatch(/ffprobe version/);
    const err = await runTool(ffprobe, ['-v', 'error', '/definitely/not/here.mp4']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolFailedError);
    expect((err as ToolFailedError).message).toMatch(/No such file/);
  });
  it('stops the process when aborted', async () => {
    const ffmpeg = findTool('ffmpeg');
    const ac = new AbortController();
    const run = runTool(ffmpeg, ['-f', 'lavfi', '-i', 'testsrc', '-f', 'null', '-'], { signal: ac.signal });
    setTimeout(() => ac.abort(new Error('stop')), 100);
    await expect(run).rejects.toThrow('stop');
  });
});
