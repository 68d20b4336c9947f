import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkFile } from '../../../../src-main/core/media/check';
import {
  CannotConvertError,
  bitratesFor,
  convertToMp4,
  createProgressParser,
  defaultOutputPath,
} from '../../../../src-main/core/media/convert';
import type { ConvertProgress } from '../../../../src-main/core/media/convert';
import { detectFile } from '../../../../src-main/core/media/detect';
import { mediaFixtures } from '../../../helpers/media-fixtures';

describe('convertToMp4', () => {
  const fx = mediaFixtures();
  const out = mkdtempSync(join(tmpdir(), 'postdesk-convert-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it.each([
    ['mov', fx.mov, 'transcode'],
    ['webm', fx.webm, 'transcode'],
    ['m4v', fx.m4v, 'remux'],
  ] as const)('%s becomes an H.264/AAC MP4 that passes the check', async (name, input, mode) => {
    const events: ConvertProgress[] = [];
    const target = join(out, `${name}.mp4`);
    const r = await convertToMp4(input, { out: target, onProgress: (p) => events.push(p) });
    expect(r).toMatchObject({ output: target, mode, attempts: 1 });
    expect(r.probe.video?.codec).toBe('h264');
    expect(r.probe.audio?.codec).toBe('aac');
    expect((await detectFile(target)).format).toBe('mp4');
    const check = await checkFile(target);
    expect(check.problems).toEqual([]);
    expect(events.at(-1)).toMatchObject({ done: true, percent: 100 });
    if (mode === 'transcode') expect(events.length).toBeGreaterThanOrEqual(1);
  });

  it('compresses a video to fit a size limit', async () => {
    const before = statSync(fx.mp4Large).size;
    const limit = 100_000;
    expect(before).toBeGreaterThan(limit);
    const r = await convertToMp4(fx.mp4Large, { out: join(out, 'small.mp4'), maxBytes: limit });
    expect(r.mode).toBe('compress');
    expect(r.bytes).toBeLessThanOrEqual(limit);
    expect(statSync(r.output).size).toBe(r.bytes);
    expect(r.probe.durationSec).toBeGreaterThan(2.5);
    expect(r.videoBitrate).toBeGreaterThan(0);
  });

  it('refuses a limit no watchable bitrate can meet, and leaves nothing behind', async () => {
    await expect(convertToMp4(fx.mp4Large, { out: join(out, 'tiny.mp4'), maxBytes: 5_000 })).rejects.toThrow(
      CannotConvertError,
    );
    expect((await readdir(out)).filter((f) => f.includes('tiny'))).toEqual([]);
  });

  it('can be cancelled, removing the partial output', async () => {
    const ac = new AbortController();
    const run = convertToMp4(fx.mp4Large, {
      out: join(out, 'cancelled.mp4'),
      maxBytes: 100_000,
      signal: ac.signal,
      onProgress: () => ac.abort(new Error('cancelled by test')),
    });
    setTimeout(() => ac.abort(new Error('cancelled by test')), 50);
    await expect(run).rejects.toThrow('cancelled by test');
    expect((await readdir(out)).filter((f) => f.includes('cancelled'))).toEqual([]);
  });

  it('never overwrites its input', async () => {
    await expect(convertToMp4(fx.mp4, { out: fx.mp4 })).rejects.toThrow(/overwrite the input/);
  });
});

describe('convert helpers', () => {
  it('names the output beside the input', () => {
    expect(defaultOutputPath('/a/b/clip.MOV')).toBe('/a/b/clip.mp4');
    expect(defaultOutputPath('/a/b/clip.mp4')).toBe('/a/b/clip.converted.mp4');
  });
  it('chooses bitrates from the duration', () => {
    const r = bitratesFor(64 * 1024 * 1024, 300, true);
    expect(r?.audio).toBe(128_000);
    // 64 MiB over 5 minutes leaves about 1.6 Mbit/s of video.
    expect(r?.video).toBeGreaterThan(1_500_000);
    expect(r?.video).toBeLessThan(1_800_000);
    expect(bitratesFor(1_000_000, 3600, true)).toBeNull();
  });
  it('parses -progress blocks split across chunks', () => {
    const blocks: Record<string, string>[] = [];
    const feed = createProgressParser((f) => blocks.push(Object.fromEntries(f)));
    feed('frame=10\nout_time_us=500000\nspe');
    feed('ed=2.5x\nprogress=continue\nout_time_ms=1000000\nprogress=end\n');
    expect(blocks).toEqual([
      { frame: '10', out_time_us: '500000', speed: '2.5x', progress: 'continue' },
      { out_time_ms: '1000000', progress: 'end' },
    ]);
  });
});
