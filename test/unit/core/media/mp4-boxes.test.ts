import { describe, expect, it } from 'vitest';
import { readMp4Layout } from '../../../../src-main/core/media/mp4-boxes';
import { mediaFixtures } from '../../../helpers/media-fixtures';

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
  it('reads only headers, so a 230 MiB sparse file costs nothing', async () => {
    const t = performance.now();
    const big = await readMp4Layout(fx.oversizeMp4);
    expect(big.hasMoov).toBe(true);
    expect(big.truncated).toBeNull();
    expect(performance.now() - t).toBeLessThan(500);
  });
});
