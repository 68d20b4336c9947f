import type { BridgeError, BridgeResult, ListFreshness } from '../../../src-shared/ipc';
import type { PostsChanged } from '../../../src-shared/ipc/posts';
import { settle } from './bridge';
import { fromIndex, loading, settleInto, type Loadable } from './loadable';
import { noteService, useServiceStore } from './use-service-store';

/** One page of a list the host reads from its local index. */
export interface ListPage<T> {
  readonly rows: readonly T[];
  /** How many rows match the query in all (the index's count). */
  readonly total: number;
  readonly freshness?: ListFreshness | undefined;
}

export interface PagedLoad<T> {
  /** Reads one page; `first` is the first page, the one that may ask the service for a refresh. */
  readonly read: (offset: number, limit: number, first: boolean) => Promise<BridgeResult<ListPage<T>>>;
  /** Rows per page after the first. */
  readonly page: number;
  /** Rows of the first page: the one that paints, so it may be smaller than the rest. */
  readonly firstPage?: number;
  /** The most rows the screen holds. */
  readonly max: number;
  /** False once a newer load started: its answer wins and this one stops at once. */
  readonly current: () => boolean;
  /**
   * The rows shown before this load, or null on a first load. A first load shows each page as it comes; a
   * refresh puts its first page over the old list and swaps in the rest once it has it all, so rows never
   * blink out.
   */
  readonly held: () => readonly T[] | null;
  readonly progressive: boolean;
  /** Shows the rows so far while pages keep arriving. */
  readonly show: (rows: readonly T[], total: number) => void;
}

export type PagedResult<T> =
  | {
      readonly ok: true;
      readonly rows: readonly T[];
      readonly total: number;
      readonly freshness: ListFreshness | undefined;
    }
  | { readonly ok: false; readonly error: Readonly<BridgeError>; readonly result: BridgeResult<never> }
  /** A newer load started: nothing to apply. */
  | { readonly ok: 'stale' };

/**
 * The paged read of a list the host holds in its index (Posts' `use-post-groups-store`): pages
 * until a short page or `max`, the first one shown at once, the rest shown or swapped in as `progressive` says.
 */
export async function loadPages<T>(o: PagedLoad<T>): Promise<PagedResult<T>> {
  const rows: T[] = [];
  let total = 0;
  let freshness: ListFreshness | undefined;
  for (let offset = 0, limit = o.firstPage ?? o.page; offset < o.max; offset += limit, limit = o.page) {
    const r = await o.read(offset, limit, offset === 0);
    if (!o.current()) return { ok: 'stale' };
    if (!r.ok) return { ok: false, error: r.error, result: r };
    rows.push(...r.value.rows);
    total = r.value.total;
    if (offset === 0) freshness = r.value.freshness;
    if (r.value.rows.length < limit || rows.length >= Math.min(total, o.max)) break;
    if (o.progressive || offset === 0) {
      const prev = o.held();
      o.show(o.progressive || !prev ? [...rows] : [...rows, ...prev.slice(rows.length)], total);
    }
  }
  return { ok: true, rows, total, freshness };
}

/** What applying one change did to a list: the rows after it, and how many it added (negative: removed). */
export interface Applied<T> {
  readonly rows: readonly T[];
  readonly delta: number;
  readonly touched: boolean;
}

/**
 * The changes (`posts:didChange`) heard while a load was on its way: the load may have read the list before
 * them, so each is applied again over what it read.
 */
export class HeardDuringLoad {
  private heard: PostsChanged[] | null = null;

  start(): void {
    this.heard = [];
  }

  /** Keeps the change if a load is on its way. */
  note(change: Readonly<PostsChanged>): void {
    this.heard?.push(change);
  }

  /** Applies what was heard over the rows read, and stops listening for this load. */
  replay<T>(
    rows: readonly T[],
    total: number,
    apply: (rows: readonly T[], change: Readonly<PostsChanged>) => Applied<T>,
  ): { readonly rows: readonly T[]; readonly total: number } {
    let shown = rows;
    let count = total;
    for (const change of this.heard ?? []) {
      const r = apply(shown, change);
      shown = r.rows;
      count += r.delta;
    }
    this.heard = null;
    return { rows: shown, total: count };
  }
}

/** A list store's part a paged load reads and writes. */
export interface PagedList<T> {
  /** One page of the list; `refresh` asks the host to ask the service now. */
  readonly list: (q: {
    readonly offset: number;
    readonly limit: number;
    readonly refresh?: true;
  }) => Promise<BridgeResult<ListPage<T>>>;
  readonly fresh: boolean;
  readonly page: number;
  readonly firstPage?: number;
  readonly max: number;
  readonly current: () => boolean;
  readonly get: () => Loadable<readonly T[]>;
  readonly put: (rows: Loadable<readonly T[]>, total?: number) => void;
  readonly heard: HeardDuringLoad;
  /** Applies one change to the rows under the list's filters. */
  readonly apply: (rows: readonly T[], change: Readonly<PostsChanged>) => Applied<T>;
}

/**
 * A whole load of a list store (`use-post-groups-store`): loading shown, pages read, the
 * changes heard meanwhile applied over them, the service's state reported. Returns the freshness of the first
 * page (the caller asks again while the host's refresh is under way), or null when it failed or a newer load won.
 */
export async function loadList<T>(o: PagedList<T>): Promise<ListFreshness | undefined | null> {
  const progressive = o.get().data === null;
  o.put(loading(o.get()));
  o.heard.start();
  const r = await loadPages<T>({
    read: (offset, limit, first) =>
      settle(() => o.list({ offset, limit, ...(first && o.fresh ? { refresh: true as const } : {}) })),
    page: o.page,
    ...(o.firstPage ? { firstPage: o.firstPage } : {}),
    max: o.max,
    current: o.current,
    held: () => o.get().data,
    progressive,
    show: (rows, total) => o.put({ ...o.get(), data: rows, loading: true }, total),
  });
  if (r.ok === 'stale') return null;
  if (!r.ok) {
    noteService(r.result);
    o.put(settleInto(o.get(), r.result));
    return null;
  }
  const { rows, total } = o.heard.replay(r.rows, r.total, o.apply);
  o.put(fromIndex([...rows], r.freshness), total);
  if (!r.freshness?.refreshing) useServiceStore.getState().report(r.freshness?.error ?? null);
  return r.freshness;
}

/**
 * One change of the posts (`posts:didChange`) applied to the rows a list store holds, without reading the list
 * again; noted too for a load on its way. `put` gets the new rows and count only when the change touched them.
 */
export function applyHeld<T>(
  change: Readonly<PostsChanged>,
  o: {
    readonly heard: HeardDuringLoad;
    readonly held: Loadable<readonly T[]>;
    readonly total: number | null;
    readonly apply: (rows: readonly T[], change: Readonly<PostsChanged>) => Applied<T>;
    readonly put: (rows: Loadable<readonly T[]>, total: number | null) => void;
  },
): void {
  o.heard.note(change);
  const rows = o.held.data;
  if (!rows) return;
  const r = o.apply(rows, change);
  if (!r.touched) return;
  o.put({ ...o.held, data: r.rows }, o.total === null ? null : Math.max(0, o.total + r.delta));
}
