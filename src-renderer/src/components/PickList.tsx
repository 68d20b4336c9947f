import type { ReactNode, Ref } from 'react';

/**
 * The list side of a list-and-detail screen: each item a button that picks it, the picked one marked
 * `aria-current`; `empty` stands instead of a list with nothing in it.
 */
export function PickList<T extends { readonly id: string }>({
  label,
  items,
  picked,
  onPick,
  itemClass,
  pickedRef,
  empty,
  children,
}: {
  /** The list's accessible name. */
  readonly label: string;
  readonly items: readonly T[];
  readonly picked: string | null | undefined;
  readonly onPick: (item: T) => void;
  /** The class of each item's button, beside `list__button`. */
  readonly itemClass: string;
  /** Given the picked item's row, to bring it into view. */
  readonly pickedRef?: Ref<HTMLLIElement>;
  readonly empty: ReactNode;
  /** What an item's button shows. */
  readonly children: (item: T) => ReactNode;
}) {
  if (items.length === 0) return empty;
  return (
    <ul className="list" aria-label={label}>
      {items.map((item) => (
        <li key={item.id} ref={picked === item.id ? pickedRef : undefined}>
          <button
            type="button"
            className={`list__button ${itemClass}`}
            aria-current={picked === item.id}
            onClick={() => onPick(item)}
          >
            {children(item)}
          </button>
        </li>
      ))}
    </ul>
  );
}
