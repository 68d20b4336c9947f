import type { Target } from '../../../src-shared/api/common';
import type { RawRow } from './rows';
import type { PostRow } from './validate';

/** The columns a queue import does not read: each row's time comes from the queue, and every row is a schedule. */
export const QUEUE_IGNORED_COLUMNS = ['scheduled_at', 'timezone', 'action'] as const;

/** Where the queue puts the posts of some rows: per row, one entry per instant its targets landed on. */
export type QueuePlacer = (
  rows: readonly { readonly targets: readonly Target[] }[],
) => Promise<readonly (readonly { readonly at: Date; readonly targets: readonly Target[] }[])[]>;

/** The rows without the columns the queue replaces, so a time in them is neither read nor refused. */
export function withoutTimeColumns(rows: readonly RawRow[]): RawRow[] {
  return rows.map((r) => ({
    ...r,
    fields: Object.fromEntries(
      Object.entries(r.fields).filter(([k]) => !(QUEUE_IGNORED_COLUMNS as readonly string[]).includes(k)),
    ),
  }));
}

/**
 * Each row at the slots the queue gave its targets. A row whose targets landed on different instants becomes one
 * post per instant (the service's create has one time per post): the first keeps the row's item key `row-N`, the
 * others are `row-N.2`, `row-N.3`… in time order.
 */
export function placeRows(rows: readonly PostRow[], placements: Awaited<ReturnType<QueuePlacer>>): PostRow[] {
  return rows.flatMap((r, i) =>
    (placements[i] ?? []).map((p, n) => ({
      ...r,
      targets: [...p.targets],
      action: 'schedule' as const,
      scheduledAt: p.at.toISOString(),
      ...(n > 0 ? { itemKey: `row-${r.row}.${n + 1}` } : {}),
    })),
  );
}
