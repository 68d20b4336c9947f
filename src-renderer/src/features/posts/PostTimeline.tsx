import { useWindowVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import type { Account } from '../../../../src-shared/api/accounts';
import type { PostGroup } from '../../../../src-shared/ipc/post-groups';
import type { PostFilters } from '../../stores/use-posts-store';
import { PostCard } from './PostCard';

/** A card's height before it is measured: head, two caption lines, one row of chips, margins. */
const CARD_ESTIMATE = 148;
/** What an open "deliveries" part adds, per delivery and once. */
const DETAIL_ROW = 48;
const DETAIL_BASE = 72;

/**
 * A card's measured height, from the ResizeObserver's entry only. The library's default reads
 * `getBoundingClientRect()` when a card mounts, which forces a layout inside React's commit on every frame
 * of a scroll (the trace in docs/ui.md, "Posts timeline"); the observer reports after the browser's own
 * layout instead, so a new card keeps its estimate until then.
 */
function measureFromObserver(
  el: Element,
  entry: ResizeObserverEntry | undefined,
  instance: Virtualizer<Window, Element>,
): number {
  const box = entry?.borderBoxSize?.[0];
  if (box) return Math.round(box.blockSize);
  const index = Number((el as HTMLElement).dataset.index);
  return instance.measurementsCache[index]?.size ?? CARD_ESTIMATE;
}

/**
 * The timeline of posts, newest first, scrolled by the page itself (no scroll box of its own): only the cards
 * in view and a few around them are in the DOM, each placed by its measured or estimated height.
 */
export function PostTimeline({
  rows,
  count,
  expanded,
  ...card
}: {
  readonly rows: readonly PostGroup[];
  /** Posts in all: those not loaded yet hold their place, so the page's length is right from the first page. */
  readonly count: number;
  readonly filters: PostFilters;
  readonly accounts: ReadonlyMap<string, Account>;
  readonly selected: ReadonlySet<string>;
  readonly expanded: ReadonlySet<string>;
  readonly onToggle: (postId: string, range: boolean) => void;
  readonly onExpand: (postId: string) => void;
  readonly onOpen: (deliveryId: string) => void;
}) {
  const list = useRef<HTMLOListElement>(null);
  // Where the list starts on the page: read when something above it changes size, never while scrolling.
  const [margin, setMargin] = useState(0);
  useLayoutEffect(() => {
    const el = list.current;
    if (!el) return;
    const read = () => setMargin(Math.round(el.getBoundingClientRect().top + window.scrollY));
    read();
    const above = el.closest('.page') ?? document.body;
    const ro = new ResizeObserver(read);
    for (const child of Array.from(above.children)) if (!child.contains(el)) ro.observe(child);
    return () => ro.disconnect();
  }, []);

  const { selected } = card;
  // The virtualizer lays out every one of the `count` posts again whenever one of these two functions is a new
  // one (its measurements are keyed on them): kept the same across renders, they change only when the rows or
  // the open cards do. A post not loaded yet is keyed by its index, a number: a string made per index cost a
  // new string and its hash for each of the 3,400 at every layout (docs/ui.md, "First render").
  const estimateSize = useCallback(
    (i: number) => {
      const g = rows[i];
      return g && expanded.has(g.post_id)
        ? CARD_ESTIMATE + DETAIL_BASE + g.deliveries.length * DETAIL_ROW
        : CARD_ESTIMATE;
    },
    [rows, expanded],
  );
  const getItemKey = useCallback((i: number): string | number => rows[i]?.post_id ?? i, [rows]);
  const virtualizer = useWindowVirtualizer({
    count,
    estimateSize,
    overscan: 3,
    scrollMargin: margin,
    getItemKey,
    measureElement: measureFromObserver,
    // Rendered by React's scheduler, not synchronously inside each scroll event (the old list's trace: a third
    // of the main thread in scroll event dispatch).
    useFlushSync: false,
  });

  return (
    <ol
      ref={list}
      className="post-timeline"
      aria-label="Posts"
      data-testid="post-timeline"
      style={{ height: virtualizer.getTotalSize() }}
    >
      {virtualizer.getVirtualItems().map((v) => {
        const g = rows[v.index];
        const style = { transform: `translateY(${v.start - margin}px)` };
        if (!g)
          return (
            <li
              key={v.key}
              className="post-timeline__item post-timeline__item--pending"
              aria-posinset={v.index + 1}
              aria-setsize={count}
              style={style}
            >
              <span className="faint">Loading…</span>
            </li>
          );
        return (
          <li
            key={v.key}
            className="post-timeline__item"
            data-index={v.index}
            ref={virtualizer.measureElement}
            aria-posinset={v.index + 1}
            aria-setsize={count}
            style={style}
          >
            <PostCard
              group={g}
              filters={card.filters}
              accounts={card.accounts}
              selected={selected.has(g.post_id)}
              expanded={expanded.has(g.post_id)}
              onToggle={card.onToggle}
              onExpand={card.onExpand}
              onOpen={card.onOpen}
            />
          </li>
        );
      })}
    </ol>
  );
}
