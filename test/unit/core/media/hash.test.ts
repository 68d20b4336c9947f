import { createHash, randomFillSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hashFile } from '../../../../src-main/core/media/hash';
import { mediaFixtures } from '../../../helpers/media-fixtures';

const reference = (file: string) => {
  const b = readFileSync(file);
  return {
    sha256: createHash('sha256').update(b).digest('hex'),
    md5: createHash('md5').update(b).digest('hex'),
    size: b.length,
  };
};

describe('hashFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'postdesk-hash-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('matches node:crypto on every fixture (inline path)', async () => {
    const fx = mediaFixtures();
    for (const f of [fx.mp4, fx.mov, fx.webm, fx.jpeg, fx.png, fx.webp, fx.truncatedMp4]) {
      expect(await hashFile(f), f).toEqual(reference(f));
    }
  });

  it('matches node:crypto through the worker, with sizes that do not divide into chunks', async () => {
    const file = join(dir, 'odd.bin');
    writeFileSync(file, randomFillSync(Buffer.alloc(3 * 1024 * 1024 + 12345)));
    const progress: number[] = [];
    const d = await hashFile(file, {
      workerThreshold: 0,
      chunkBytes: 256 * 1024,
      queueDepth: 2,
      onProgress: (b) => progress.push(b),
    });
    expect(d).toEqual(reference(file));
    expect(progress.at(-1)).toBe(d.size);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it('hashes an empty file', async () => {
    const file = join(dir, 'empty.bin');
    writeFileSync(file, '');
    expect(await hashFile(file, { workerThreshold: 0 })).toEqual(reference(file));
  });

  it('keeps memory flat: the chunk pool bounds what is in flight', async () => {
    const file = join(dir, 'big.bin');
    writeFileSync(file, Buffer.alloc(48 * 1024 * 1024, 0x5a));
    const before = process.memoryUsage().arrayBuffers;
    let peak = 0;
    const d = await hashFile(file, {
      workerThreshold: 0,
      onProgress: () => {
        peak = Math.max(peak, process.memoryUsage().arrayBuffers - before);
      },
    });
    expect(d).toEqual(reference(file));
    // 8 chunks of 1 MiB in the pool; a file-sized buffer would show 48 MiB here.
    expect(peak).toBeLessThan(16 * 1024 * 1024);
  });

  it('stops when aborted', async () => {
    const ac = new AbortController();
    ac.abort(new Error('stop'));
    await expect(hashFile(mediaFixtures().mp4, { signal: ac.signal })).rejects.toThrow('stop');
  });
});
