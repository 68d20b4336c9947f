import { describe, expect, it } from 'vitest';
import type { Delivery } from '../../../src-shared/api/posts';
import { applyToDeliveries, applyToGroups } from '../../../src-renderer/src/stores/post-changes';

const T0 = Date.parse('2030-01-01T00:00:00.000Z');
function d(id: string, post: string, patch: Partial<Delivery> = {}): Delivery {
  const n = Number(id.replace(/\D/g, ''));
  return {
    id,
    post_id: post,
    status: 'scheduled',
    platform: 'x',
    social_account_id: `acc-${id}`,
    caption: id,
    scheduled_at: new Date(T0 + 3_600_000).toISOString(),
    published_at: null,
    last_error: null,
    created_at: new Date(T0 + n * 60_000).toISOString(),
    updated_at: new Date(T0 + n * 60_000).toISOString(),
    ...patch,
  };
}
const all = () => true;

describe('a change applied to the rows a screen holds', () => {
  it('replaces a changed delivery in place, drops a removed one, and puts a new one first (newest)', () => {
    const rows = [d('d3', 'p2'), d('d2', 'p1'), d('d1', 'p1')];
    const moved = d('d2', 'p1', { scheduled_at: new Date(T0 + 7_200_000).toISOString() });
    const r = applyToDeliveries(
      rows,
      { reason: 'updated', deliveries: [moved, d('d9', 'p5')], removed: [{ id: 'd1', post_id: 'p1' }] },
      all,
    );
    expect(r.rows.map((x) => x.id)).toEqual(['d9', 'd3', 'd2']);
    expect(r.rows[2]).toBe(moved);
    expect(r.delta).toBe(0);
    // Untouched rows are the same objects: nothing else re-renders.
    expect(r.rows[1]).toBe(rows[0]);
  });

  it('drops a row that no longer matches the filter, and leaves the list as it was when nothing it holds changed', () => {
    const rows = [d('d2', 'p1'), d('d1', 'p1')];
    const scheduledOnly = (x: Readonly<Delivery>) => x.status === 'scheduled';
    const posted = applyToDeliveries(
      rows,
      { reason: 'refresh', deliveries: [d('d1', 'p1', { status: 'posted' })] },
      scheduledOnly,
    );
    expect(posted.rows.map((x) => x.id)).toEqual(['d2']);
    expect(posted.delta).toBe(-1);
    const elsewhere = applyToDeliveries(
      rows,
      { reason: 'refresh', deliveries: [d('d7', 'p9', { status: 'posted' })] },
      scheduledOnly,
    );
    expect(elsewhere.touched).toBe(false);
    expect(elsewhere.rows).toBe(rows);
  });

  it('keeps a post one group: a changed delivery joins its post, a new post joins at the top', () => {
    const groups = [
      { post_id: 'p2', deliveries: [d('d3', 'p2')] },
      { post_id: 'p1', deliveries: [d('d1', 'p1'), d('d2', 'p1', { platform: 'linkedin' })] },
    ];
    const failed = d('d1', 'p1', { status: 'failed', last_error: 'refused' });
    const r = applyToGroups(
      groups,
      { reason: 'updated', deliveries: [failed, d('d8', 'p4')], removed: [{ id: 'd3', post_id: 'p2' }] },
      all,
    );
    expect(r.rows.map((g) => g.post_id)).toEqual(['p4', 'p1']);
    expect(r.rows[1]!.deliveries.map((x) => [x.id, x.status])).toEqual([
      ['d2', 'scheduled'],
      ['d1', 'failed'],
    ]);
    expect(r.delta).toBe(0);
  });
});
