import type * as FsPromises from 'node:fs/promises';
import { describe, expect, it, vi } from 'vitest';
import { readMp4Layout } from '../../../../src-main/core/media/mp4-boxes';
import { mediaFixtures } from '../../../helpers/media-fixtures';

/** Every byte read through a `node:fs/promises` file handle: the real file system, counted. */
const read = vi.hoisted(() => ({ bytes: 0 }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof FsPromises>();
  const open: typeof fs.open = async (...args) => {
    const fh = await fs.open(...args);
    const readInto = fh.read.bind(fh) as (...a: unknown[]) => Promise<{ bytesRead: number }>;
    Object.assign(fh, {
      read: async (...a: unknown[]) => {
        const r = await readInto(...a);
        read.bytes += r.bytesRead;
        return r;
      },
    });
    return fh;
  };
  return { ...fs, open, default: { ...fs, open } };
});

describe('readMp4Layout', () => {
  const fx = mediaFixtures();
  it('sees the index first in a faststart file and last otherwise', async () => {
    const fast = await readMp4Layout(fx.mp4);
    expect(fast.boxes.map((b) => b.type)).toEqual(expect.arrayContaining(['ftyp', 'moov', 'mdat']));
    expect(fast).toMatchObject({ hasMoov: true, hasMdat: true, faststart: true, truncated: null });
    const last = await readMp4Layout(fx.mp4IndexLast);
    expect(last).toMatchObject({ hasMoov: true, faststart: false, truncated: null });
  });
  it('catches a file cut short', async () => {
    const cut = await readMp4Layout(fx.truncatedMp4);
    expect(cut.hasMoov).toBe(false);
    expect(cut.truncated?.box).toBe('mdat');
    expect(cut.truncated?.declaredEnd).toBeGreaterThan(cut.truncated?.fileSize ?? Infinity);
  });
  // How long it takes is measured by `npm run bench -- local`, beside ffprobe.
  it('reads only box headers, 16 bytes a box, however large the file', async () => {
    read.bytes = 0;
    const big = await readMp4Layout(fx.oversizeMp4);
    expect(big).toMatchObject({ hasMoov: true, hasMdat: true, faststart: true, truncated: null });
    expect(big.boxes.at(-1)).toMatchObject({ size: 230.5 * 1024 * 1024 - big.boxes.at(-1)!.start });
    expect(read.bytes).toBeGreaterThan(0);
    expect(read.bytes).toBeLessThanOrEqual(16 * big.boxes.length);
  });
});
