import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ToolFailedError,
  ToolNotFoundError,
  createSettingsTools,
  findOnPath,
  findTool,
  runTool,
  toolSettingsOf,
  unpackedAsarPath,
  type ToolSettings,
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

describe('unpackedAsarPath', () => {
  it('points a binary inside app.asar at app.asar.unpacked, and leaves other paths alone', () => {
    expect(
      unpackedAsarPath('/opt/Postdesk/resources/app.asar/node_modules/@ffmpeg-installer/linux-x64/ffmpeg'),
    ).toBe('/opt/Postdesk/resources/app.asar.unpacked/node_modules/@ffmpeg-installer/linux-x64/ffmpeg');
    expect(unpackedAsarPath('C:\\Postdesk\\resources\\app.asar\\node_modules\\ffmpeg.exe')).toBe(
      'C:\\Postdesk\\resources\\app.asar.unpacked\\node_modules\\ffmpeg.exe',
    );
    const unpacked = '/opt/Postdesk/resources/app.asar.unpacked/node_modules/ffmpeg';
    expect(unpackedAsarPath(unpacked)).toBe(unpacked);
    expect(unpackedAsarPath('/home/me/my-app.asar/ffmpeg')).toBe('/home/me/my-app.asar/ffmpeg');
    expect(unpackedAsarPath('/usr/bin/ffmpeg')).toBe('/usr/bin/ffmpeg');
  });
});

describe('settings for the tools', () => {
  const dir = mkdtempSync(join(tmpdir(), 'postdesk-tools-settings-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('lets the environment override a saved path, and treats null as not set', () => {
    const saved = { ffmpegPath: '/saved/ffmpeg', ffprobePath: null };
    expect(toolSettingsOf(saved, {})).toEqual({ ffmpegPath: '/saved/ffmpeg', ffprobePath: undefined });
    expect(toolSettingsOf(saved, { POSTDESK_FFMPEG_PATH: '/env/ffmpeg' })).toMatchObject({
      ffmpegPath: '/env/ffmpeg',
    });
    expect(toolSettingsOf(null, {})).toEqual({ ffmpegPath: undefined, ffprobePath: undefined });
  });

  it('follows a setting changed while running', () => {
    const npm = findTool('ffprobe', {}, { PATH: '' });
    const mine = join(dir, 'my-ffprobe');
    symlinkSync(npm.path, mine);
    let current: ToolSettings = {};
    const tools = createSettingsTools(() => current, { PATH: '' });
    expect(tools.ffprobe()).toMatchObject({ source: 'npm' });
    current = { ffprobePath: mine };
    expect(tools.ffprobe()).toEqual({ name: 'ffprobe', path: mine, source: 'setting' });
    current = { ffprobePath: join(dir, 'missing') };
    expect(() => tools.ffprobe()).toThrow(ToolNotFoundError);
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
