import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkFile, checkFiles, cliHint } from '../../../../src-main/core/media/check';
import { mediaFixtures } from '../../../helpers/media-fixtures';

describe('checkFile', () => {
  const fx = mediaFixtures();

  it('accepts real images and an MP4', async () => {
    for (const [file, type] of [
      [fx.jpeg, 'image/jpeg'],
      [fx.png, 'image/png'],
      [fx.webp, 'image/webp'],
      [fx.mp4, 'video/mp4'],
      [fx.mp4IndexLast, 'video/mp4'],
    ] as const) {
      const c = await checkFile(file);
      expect(c.problems, file).toEqual([]);
      expect(c).toMatchObject({ ok: true, contentType: type });
    }
  });

  it('names file, rule and number for an oversize MP4', async () => {
    const c = await checkFile(fx.oversizeMp4);
    expect(c.ok).toBe(false);
    const size = c.problems.find((p) => p.rule === 'size');
    expect(size).toMatchObject({
      severity: 'error',
      limit: 209715200,
      actual: Math.round(230.5 * 1024 * 1024),
    });
    expect(size?.message).toMatch(
      /^oversize\.mp4: MP4 uploads are limited to 200 MiB \(209715200 bytes\); this file is 230\.5 MiB/,
    );
  });

  it('applies the 15 MiB image limit', async () => {
    const c = await checkFile(fx.oversizeJpeg);
    expect(c.problems.map((p) => p.message)).toEqual([
      'oversize.jpg: image uploads are limited to 15 MiB (15728640 bytes); this file is 16 MiB',
    ]);
  });

  it('finds a truncated MP4 from its boxes and from ffprobe', async () => {
    const c = await checkFile(fx.truncatedMp4);
    expect(c.ok).toBe(false);
    expect(c.problems).toHaveLength(1);
    expect(c.problems[0]).toMatchObject({ rule: 'integrity', severity: 'error' });
    // The fixture's size depends on the ffmpeg that made it (the system's, or the bundled one).
    const size = statSync(fx.truncatedMp4).size;
    expect(c.problems[0]?.message).toMatch(
      new RegExp(
        `^truncated\\.mp4: the MP4 is truncated: its "mdat" box ends at byte \\d+ but the file has ${size} bytes$`,
      ),
    );
  });

  it('goes by the bytes: a PNG named .mp4 is a PNG, with a warning', async () => {
    const c = await checkFile(fx.pngNamedMp4);
    expect(c).toMatchObject({ ok: true, contentType: 'image/png' });
    expect(c.problems).toEqual([
      expect.objectContaining({
        rule: 'extension',
        severity: 'warning',
        message: 'png-named.mp4: named .mp4 but the bytes are a PNG image; it is sent as image/png',
      }),
    ]);
  });

  it('points MOV, M4V and WebM at conversion, and refuses GIF', async () => {
    // What media-fixtures.ts made each of them with: the check still probes the file it refuses.
    for (const [f, codec] of [
      [fx.mov, 'mpeg4'],
      [fx.m4v, 'h264'],
      [fx.webm, 'vp8'],
    ] as const) {
      const c = await checkFile(f);
      expect(c.ok).toBe(false);
      expect(c.problems[0]?.rule).toBe('type');
      // The words are for a person in every face; the command is the command line's own hint.
      expect(c.problems[0]?.message).toContain('is not accepted as it is; it can be converted to MP4');
      expect(c.problems[0]?.fix).toEqual({ kind: 'convert' });
      expect(cliHint(c.problems[0]!, f)).toBe(`; convert it with \`postdesk media convert ${f}\``);
      expect(c.probe?.video).toMatchObject({ codec, width: 64, height: 48 });
    }
    const gif = await checkFile(fx.gif);
    expect(gif.problems[0]?.message).toBe(
      'image.gif: a GIF image is not accepted; uploads take JPEG, PNG or WebP images, or MP4 video',
    );
  });

  it('applies the direct-upload rules: MP4 only, 64 MiB', async () => {
    const big = await checkFile(fx.overDirectMp4, { purpose: 'direct-upload' });
    expect(big.problems.map((p) => [p.rule, p.limit, p.actual])).toEqual([
      ['direct-upload-size', 67108864, 65 * 1024 * 1024],
    ]);
    expect(big.problems[0]?.message).toMatch(
      /^over-direct\.mp4: direct uploads are limited to 64 MiB \(67108864 bytes\); this file is 65 MiB/,
    );
    expect((await checkFile(fx.overDirectMp4)).ok).toBe(true);
    const jpeg = await checkFile(fx.jpeg, { purpose: 'direct-upload' });
    expect(jpeg.problems[0]).toMatchObject({ rule: 'direct-upload-type' });
    expect(jpeg.problems[0]?.message).toBe(
      'image.jpg: direct uploads take MP4 video only; this file is a JPEG image',
    );
  });

  it('reports a missing file without throwing', async () => {
    const c = await checkFile('/no/such/file.mp4');
    expect(c.problems[0]).toMatchObject({
      rule: 'file',
      message: 'file.mp4: no such file: it was moved, renamed or deleted',
    });
  });
});

describe('checkFiles', () => {
  it('holds one output to 10 media', async () => {
    const fx = mediaFixtures();
    const eleven = Array.from({ length: 11 }, () => fx.jpeg);
    const set = await checkFiles(eleven, { asOneOutput: true });
    expect(set.ok).toBe(false);
    expect(set.files.every((f) => f.ok)).toBe(true);
    expect(set.setProblems).toEqual([
      expect.objectContaining({
        rule: 'media-count',
        limit: 10,
        actual: 11,
        message: '11 files: one post or run output carries at most 10 media; this one has 11',
      }),
    ]);
    expect((await checkFiles(eleven.slice(1), { asOneOutput: true })).ok).toBe(true);
    expect(basename(set.files[0]?.path ?? '')).toBe('image.jpg');
  });
});
