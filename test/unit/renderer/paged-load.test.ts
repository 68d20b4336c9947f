import { describe, expect, it } from 'vitest';
import type { BridgeResult } from '../../../src-shared/ipc';
import { loadPages, type ListPage } from '../../../src-renderer/src/stores/paged-load';

/** A list of `total` numbers read in pages, as the host's index answers `offset`/`limit`. */
function source(total: number) {
  const asked: Array<[number, number, boolean]> = [];
  const read = async (
    offset: number,
    limit: number,
    first: boolean,
  ): Promise<BridgeResult<ListPage<number>>> => {
    asked.push([offset, limit, first]);
    const rows = Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) => offset + i);
    return { ok: true, value: { rows, total } };
  };
  return { read, asked };
}

describe('loadPages, the paged read of the Posts list', () => {
  it('reads a small first page, then full pages, until the total, showing each page on a first load', async () => {
    const { read, asked } = source(1_234);
    const shown: number[] = [];
    const r = await loadPages({
      read,
      page: 500,
      firstPage: 30,
      max: 10_000,
      current: () => true,
      held: () => null,
      progressive: true,
      show: (rows) => shown.push(rows.length),
    });
    expect(asked).toEqual([
      [0, 30, true],
      [30, 500, false],
      [530, 500, false],
      [1030, 500, false],
    ]);
    expect(r.ok === true && r.rows.length).toBe(1_234);
    expect(r.ok === true && r.rows.at(-1)).toBe(1_233);
    expect(shown).toEqual([30, 530, 1030]);
  });

  it('on a refresh puts the first page over the rows held and keeps the rest until it has them all', async () => {
    const { read } = source(1_000);
    const held = Array.from({ length: 1_000 }, (_, i) => -i - 1);
    const shown: number[][] = [];
    await loadPages({
      read,
      page: 500,
      firstPage: 30,
      max: 10_000,
      current: () => true,
      held: () => held,
      progressive: false,
      show: (rows) => shown.push([...rows]),
    });
    expect(shown).toHaveLength(1);
    expect(shown[0]?.slice(0, 30)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    expect(shown[0]?.slice(30)).toEqual(held.slice(30));
  });

  it('stops at once when a newer load started, and passes a failed page on', async () => {
    let live = true;
    const { read, asked } = source(5_000);
    const stale = await loadPages({
      read: async (o, l, f) => {
        const r = await read(o, l, f);
        live = false;
        return r;
      },
      page: 500,
      max: 10_000,
      current: () => live,
      held: () => null,
      progressive: true,
      show: () => undefined,
    });
    expect(stale).toEqual({ ok: 'stale' });
    expect(asked).toHaveLength(1);
    const failed = await loadPages<number>({
      read: async () => ({ ok: false, error: { kind: 'network', message: 'The service did not answer.' } }),
      page: 500,
      max: 10_000,
      current: () => true,
      held: () => null,
      progressive: true,
      show: () => undefined,
    });
    expect(failed.ok).toBe(false);
  });
});
