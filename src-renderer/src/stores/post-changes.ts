import type { Delivery } from '../../../src-shared/api/posts';
import type { PostGroup } from '../../../src-shared/ipc/post-groups';
import type { PostsChanged } from '../../../src-shared/ipc/posts';

/**
 * A precise change (`posts:didChange`) applied to the rows a screen holds, one by one, without reading the list
 * again: each changed delivery takes its new record, a removed one leaves, a new one joins where the list's order
 * puts it, and a row that no longer matches the screen's filter leaves. Pure: the stores and the benchmark use it.
 */
export interface Applied<T> {
  readonly rows: readonly T[];
  /** How many rows joined minus how many left: what the list's total moves by. */
  readonly delta: number;
  /** Whether anything the screen holds or would hold changed. */
  readonly touched: boolean;
}

const byNewest = (a: Readonly<Delivery>, b: Readonly<Delivery>): number =>
  Date.parse(b.created_at) - Date.parse(a.created_at);

/** A flat list of deliveries (newest first unless `order` says otherwise), keeping only those `keep` accepts. */
export function applyToDeliveries(
  rows: readonly Delivery[],
  change: Readonly<PostsChanged>,
  keep: (d: Readonly<Delivery>) => boolean,
  order: (a: Readonly<Delivery>, b: Readonly<Delivery>) => number = byNewest,
): Applied<Delivery> {
  const removed = new Set((change.removed ?? []).map((r) => r.id));
  const changed = new Map((change.deliveries ?? []).map((d) => [d.id, d]));
  if (removed.size === 0 && changed.size === 0) return { rows, delta: 0, touched: false };
  let touched = false;
  const out: Delivery[] = [];
  for (const d of rows) {
    if (removed.has(d.id)) {
      touched = true;
      continue;
    }
    const next = changed.get(d.id);
    if (!next) {
      out.push(d);
      continue;
    }
    changed.delete(d.id);
    touched = true;
    if (keep(next)) out.push(next);
  }
  const joining = [...changed.values()].filter(keep);
  if (joining.length > 0) touched = true;
  if (!touched) return { rows, delta: 0, touched: false };
  // Rows keep their places; a joining one goes where the order puts it.
  for (const d of joining.sort(order)) {
    const at = out.findIndex((x) => order(d, x) < 0);
    if (at < 0) out.push(d);
    else out.splice(at, 0, d);
  }
  return { rows: out, delta: out.length - rows.length, touched };
}

/** The chips of a post keep their places: by platform, then account (as the host's index orders them). */
const chipOrder = (a: Readonly<Delivery>, b: Readonly<Delivery>): number =>
  a.platform.localeCompare(b.platform) || a.social_account_id.localeCompare(b.social_account_id);

/**
 * Posts, each with every delivery: a touched post takes its changed deliveries and loses its removed ones, and
 * stays only while one of them matches `matches`; a post the screen did not hold joins at the top (the newest).
 */
export function applyToGroups(
  groups: readonly PostGroup[],
  change: Readonly<PostsChanged>,
  matches: (d: Readonly<Delivery>) => boolean,
): Applied<PostGroup> {
  const removed = new Set((change.removed ?? []).map((r) => r.id));
  const byPost = new Map<string, Delivery[]>();
  for (const d of change.deliveries ?? []) {
    const list = byPost.get(d.post_id) ?? [];
    list.push(d);
    byPost.set(d.post_id, list);
  }
  const touchedPosts = new Set([...byPost.keys(), ...(change.removed ?? []).map((r) => r.post_id)]);
  if (touchedPosts.size === 0) return { rows: groups, delta: 0, touched: false };
  let touched = false;
  const out: PostGroup[] = [];
  for (const g of groups) {
    if (!touchedPosts.has(g.post_id)) {
      out.push(g);
      continue;
    }
    touched = true;
    const fresh = byPost.get(g.post_id) ?? [];
    byPost.delete(g.post_id);
    const freshIds = new Set(fresh.map((d) => d.id));
    const deliveries = [
      ...g.deliveries.filter((d) => !removed.has(d.id) && !freshIds.has(d.id)),
      ...fresh,
    ].sort(chipOrder);
    if (deliveries.some(matches)) out.push({ post_id: g.post_id, deliveries });
  }
  const joining = [...byPost.entries()]
    .filter(([, ds]) => ds.some(matches))
    .map(([post_id, ds]) => ({ post_id, deliveries: [...ds].sort(chipOrder) }))
    .sort((a, b) => newestOf(b) - newestOf(a));
  if (joining.length > 0) touched = true;
  if (!touched) return { rows: groups, delta: 0, touched: false };
  const rows = [...joining, ...out];
  return { rows, delta: rows.length - groups.length, touched };
}

const newestOf = (g: Readonly<PostGroup>): number =>
  Math.max(...g.deliveries.map((d) => Date.parse(d.created_at) || 0));
