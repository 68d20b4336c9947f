import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ToolFailedError,
  ToolNotFoundError,
  createSettingsTools,
  findOnPath,
  findTool,
  readVersion,
  runTool,
  toolSettingsOf,
  unpackedAsarPath,
  type ToolSettings,
} from '../../../../src-main/core/media/tools';
import { cardArgv, detectBytes, probeArgv, versionArgv } from '../../../../src-shared/media-input';

/** The first bytes of an MP4: enough for the sniffer to name the `mov` demuxer. */
const MP4_HEAD = Buffer.from('0000001c6674797069736f6d0000020069736f6d69736f32', 'hex');

describe('findTool', () => {
  const dir = mkdtempSync(join(tmpdir(), 'postdesk-tools-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prefers a setting, then a recent system build, then a recent bundled one, then whichever exists', () => {
    const npm = findTool('ffmpeg', {}, { PATH: '' });
    expect(npm.source).toBe('npm');
    expect(npm.path).toContain('@ffmpeg-installer');
    // The bundled ffmpeg is a 2018 snapshot: present, but not recent.
    expect(npm).toMatchObject({ recent: false, version: expect.stringMatching(/^N-/) as string });
    const system = findOnPath('ffmpeg');
    if (system) {
      const found = findTool('ffmpeg', {}, { PATH: process.env.PATH });
      expect(found).toMatchObject({ source: 'path', path: system });
      // Even an old system build comes before the bundled snapshot: a distribution still patches it.
      const sysDir = join(dir, 'sys');
      mkdirSync(sysDir);
      writeFileSync(join(sysDir, 'ffmpeg'), '#!/bin/sh\necho "ffmpeg version 4.4.2-0ubuntu0.22.04.1"\n', {
        mode: 0o755,
      });
      expect(findTool('ffmpeg', {}, { PATH: sysDir })).toMatchObject({
        source: 'path',
        version: '4.4.2-0ubuntu0.22.04.1',
        recent: false,
      });
    }

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
    expect(tools.ffprobe()).toMatchObject({ name: 'ffprobe', path: mine, source: 'setting' });
    current = { ffprobePath: join(dir, 'missing') };
    expect(() => tools.ffprobe()).toThrow(ToolNotFoundError);
  });
});

describe('readVersion', () => {
  it('reads releases by number and snapshots by their year, against 5.1 and 2023', () => {
    const cases: [string, boolean][] = [
      ['ffmpeg version 5.1.9-0+deb12u1 Copyright (c) 2000-2026 the FFmpeg developers', true],
      ['ffmpeg version n6.1.1 Copyright (c) 2000-2023 the FFmpeg developers', true],
      ['ffmpeg version 7.0 Copyright (c) 2000-2024', true],
      ['ffmpeg version 5.0.3 Copyright (c) 2000-2022', false],
      ['ffmpeg version 4.4.2-0ubuntu0.22.04.1 Copyright (c) 2000-2021', false],
      [
        'ffmpeg version N-47683-g0e8eb07980-static https://x  Copyright (c) 2000-2018 the FFmpeg developers',
        false,
      ],
      [
        'ffprobe version N-66595-gc2b38619c0-static https://x  Copyright (c) 2007-2023 the FFmpeg developers',
        true,
      ],
      ['ffmpeg version 2024-01-01-git-5e751dabc5-full_build-www.gyan.dev', true],
      ['not ffmpeg at all', false],
    ];
    for (const [text, recent] of cases) expect(readVersion(text).recent, text).toBe(recent);
    expect(readVersion(cases[0]![0]).version).toBe('5.1.9-0+deb12u1');
  });
});

describe('runTool', () => {
  it('returns stdout and turns a failure into its stderr', async () => {
    const ffprobe = findTool('ffprobe');
    expect(await runTool(ffprobe, versionArgv('ffprobe'))).toMatch(/ffprobe version/);
    const missing = '/definitely/not/here.mp4';
    const err = await runTool(ffprobe, probeArgv(detectBytes(MP4_HEAD), missing)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolFailedError);
    expect((err as ToolFailedError).message).toMatch(/No such file/);
  });
  it('refuses arguments made for the other tool', async () => {
    await expect(runTool(findTool('ffmpeg'), versionArgv('ffprobe'))).rejects.toThrow(/ffprobe arguments/);
  });
  it('stops the process when aborted', async () => {
    const ffmpeg = findTool('ffmpeg');
    const ac = new AbortController();
    const out = join(mkdtempSync(join(tmpdir(), 'postdesk-abort-')), 'card.mp4');
    const run = runTool(ffmpeg, cardArgv('0x1d3557', true, out), { signal: ac.signal });
    setTimeout(() => ac.abort(new Error('stop')), 100);
    await expect(run).rejects.toThrow('stop');
    rmSync(dirname(out), { recursive: true, force: true });
  });
});
