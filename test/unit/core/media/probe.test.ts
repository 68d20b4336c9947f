import { describe, expect, it } from 'vitest';
import { parseProbeJson, probeFile } from '../../../../src-main/core/media/probe';
import { ToolFailedError } from '../../../../src-main/core/media/tools';
import { mediaFixtures } from '../../../helpers/media-fixtures';

describe('probeFile', () => {
  const fx = mediaFixtures();
  it('reads dimensions, duration and codecs', async () => {
    const p = await probeFile(fx.mp4);
    expect(p.video).toMatchObject({ codec: 'h264', width: 64, height: 48, rotation: 0, displayWidth: 64 });
    expect(p.audio?.codec).toBe('aac');
    expect(p.durationSec).toBeGreaterThan(0.9);
    expect(p.durationSec).toBeLessThan(1.2);
  });
  it('reads rotation and swaps the shown dimensions', async () => {
    const p = await probeFile(fx.mp4Rotated);
    expect(p.video?.rotation).toBe(90);
    expect(p.video).toMatchObject({ width: 64, height: 48, displayWidth: 48, displayHeight: 64 });
  });
  it('reads WebM and MOV codecs', async () => {
    expect((await probeFile(fx.webm)).video?.codec).toBe('vp8');
    expect((await probeFile(fx.mov)).video?.codec).toBe('mpeg4');
  });
  it('fails on a truncated MP4 whose index never arrived', async () => {
    await expect(probeFile(fx.truncatedMp4)).rejects.toBeInstanceOf(ToolFailedError);
  });
});

describe('parseProbeJson', () => {
  it('takes the rotate tag of older builds and tolerates missing fields', () => {
    const p = parseProbeJson(
      JSON.stringify({
        streams: [
          { codec_type: 'video', codec_name: 'h264', width: 1920, height: 1080, tags: { rotate: '270' } },
        ],
        format: { format_name: 'mov,mp4', duration: '12.5' },
      }),
    );
    expect(p).toMatchObject({ durationSec: 12.5, audio: null, bitRate: null });
    expect(p.video).toMatchObject({
      rotation: 270,
      displayWidth: 1080,
      displayHeight: 1920,
      frameRate: null,
    });
  });
  it('rejects output that is not ffprobe JSON', () => {
    expect(() => parseProbeJson('{"streams": "nope"}')).toThrow();
  });
});
