import { describe, expect, it } from 'vitest';
import { detectBytes, detectFile } from '../../../../src-main/core/media/detect';
import { mediaFixtures } from '../../../helpers/media-fixtures';

describe('detectFile reads the type from the bytes', () => {
  const fx = mediaFixtures();
  it.each([
    ['mp4', fx.mp4, 'video/mp4'],
    ['mp4', fx.mp4IndexLast, 'video/mp4'],
    ['jpeg', fx.jpeg, 'image/jpeg'],
    ['png', fx.png, 'image/png'],
    ['webp', fx.webp, 'image/webp'],
    ['png', fx.pngNamedMp4, 'image/png'],
    ['jpeg', fx.oversizeJpeg, 'image/jpeg'],
  ] as const)('%s: %s', async (format, file, mime) => {
    const d = await detectFile(file);
    expect(d.format).toBe(format);
    expect(d.mime).toBe(mime);
    expect(d.convertible).toBe(false);
  });

  it.each([
    ['mov', fx.mov],
    ['m4v', fx.m4v],
    ['webm', fx.webm],
  ] as const)('%s is recognised as convertible, not accepted as it is', async (format, file) => {
    const d = await detectFile(file);
    expect(d).toMatchObject({ format, mime: null, convertible: true });
  });

  it('a GIF is recognised and refused', async () => {
    expect(await detectFile(fx.gif)).toMatchObject({ format: 'gif', mime: null, convertible: false });
  });
});

describe('detectBytes', () => {
  const ftyp = (major: string, ...compat: string[]): Uint8Array => {
    const size = 16 + compat.length * 4;
    const b = Buffer.alloc(size);
    b.writeUInt32BE(size, 0);
    b.write('ftyp', 4, 'latin1');
    b.write(major, 8, 'latin1');
    compat.forEach((c, i) => b.write(c, 16 + i * 4, 'latin1'));
    return b;
  };
  it('classifies ftyp brands', () => {
    expect(detectBytes(ftyp('qt  ')).format).toBe('mov');
    expect(detectBytes(ftyp('M4V ', 'isom')).format).toBe('m4v');
    expect(detectBytes(ftyp('M4A ', 'isom')).format).toBe('audio');
    expect(detectBytes(ftyp('heic', 'mif1')).format).toBe('heif');
    expect(detectBytes(ftyp('3gp5', 'isom')).format).toBe('3gp');
    expect(detectBytes(ftyp('XYZW', 'mp42')).format).toBe('mp4');
    expect(detectBytes(ftyp('XYZW', 'abcd')).format).toBe('unknown');
  });
  it('knows Matroska from WebM and an empty file from garbage', () => {
    const ebml = Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x88, ...Buffer.from('matroska')]);
    expect(detectBytes(ebml).format).toBe('mkv');
    expect(detectBytes(new Uint8Array()).format).toBe('empty');
    expect(detectBytes(Buffer.from('hello, world: not a picture')).format).toBe('unknown');
  });
  it('reads a QuickTime file that has no ftyp', () => {
    const b = Buffer.alloc(16);
    b.writeUInt32BE(8, 0);
    b.write('wide', 4, 'latin1');
    expect(detectBytes(b).format).toBe('mov');
  });
});
