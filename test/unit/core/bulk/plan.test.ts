import { describe, expect, it } from 'vitest';
import { buildPlan, chunk } from '../../../../src-main/core/bulk/plan';
import type { PostRow } from '../../../../src-main/core/bulk/validate';

const A = '11111111-1111-4111-8111-000000000001';
const B = '11111111-1111-4111-8111-000000000002';

describe('buildPlan', () => {
  it('cuts batches of 100, deduplicates uploads by content and lists the schedule per target', () => {
    const rows: PostRow[] = Array.from({ length: 250 }, (_, i) => ({
      row: i + 1,
      line: i + 2,
      caption: `post ${i}`,
      media: [
        {
          kind: 'file',
          given: i % 2 ? 'a.jpg' : 'copy-of-a.jpg',
          path: i % 2 ? '/d/a.jpg' : '/d/copy-of-a.jpg',
        },
      ],
      targets:
        i % 5 === 0
          ? [
              { platform: 'x', social_account_id: A },
              { platform: 'linkedin', social_account_id: B },
            ]
          : [{ platform: 'x', social_account_id: A }],
      action: i % 10 === 0 ? 'draft' : 'schedule',
      scheduledAt:
        i % 10 === 0 ? undefined : new Date(Date.UTC(2031, 0, 1) + (250 - i) * 3600_000).toISOString(),
    }));
    const sha = 'a'.repeat(64);
    const digests = new Map([
      ['/d/a.jpg', { sha256: sha, md5: 'b'.repeat(32), size: 1000 }],
      ['/d/copy-of-a.jpg', { sha256: sha, md5: 'b'.repeat(32), size: 1000 }],
    ]);
    const plan = buildPlan(260, rows, [], digests, () => false);
    expect(plan.batches.map((b) => [b.items, b.firstRow, b.lastRow])).toEqual([
      [100, 1, 100],
      [100, 101, 200],
      [50, 201, 250],
    ]);
    expect(plan.uploads).toHaveLength(1);
    expect(plan.uploads[0]).toMatchObject({ sha256: sha, bytes: 1000, uploadedBefore: false });
    expect([...(plan.uploads[0]?.files ?? [])].sort()).toEqual(['a.jpg', 'copy-of-a.jpg']);
    expect(plan.duplicateFiles).toBe(249);
    const x = plan.schedule.find((s) => s.target === `x:${A}`);
    expect(x?.drafts).toBe(25);
    expect(x?.scheduled).toHaveLength(225);
    const times = x?.scheduled.map((s) => s.at) ?? [];
    expect(times).toEqual([...times].sort());
    expect(plan.schedule.find((s) => s.target === `linkedin:${B}`)).toMatchObject({
      drafts: 25,
      scheduled: expect.any(Array),
    });
  });
  it('chunk keeps order and the last partial chunk', () => {
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunk([])).toEqual([]);
  });
});
