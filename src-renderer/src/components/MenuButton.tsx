import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';

export interface MenuItem {
  readonly id: string;
  readonly label: string;
  readonly run: () => void;
  readonly danger?: boolean;
}

/**
 * A "…" button that opens a menu of actions (the WAI-ARIA menu button pattern): Enter, Space or ArrowDown opens it
 * on the first item, ArrowUp on the last; arrows, Home and End move between items; Escape or Tab closes it, and
 * Escape gives focus back to the button. Clicking outside closes it.
 */
export function MenuButton({
  label,
  items,
  onOpenChange,
}: {
  /** The button's accessible name: "Actions for post: …". */
  readonly label: string;
  readonly items: readonly MenuItem[];
  readonly onOpenChange?: (open: boolean) => void;
}) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [focusAt, setFocusAt] = useState(0);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);

  const show = (at: number) => {
    setFocusAt(at);
    setOpen(true);
    onOpenChange?.(true);
  };
  const hide = (refocus: boolean) => {
    setOpen(false);
    onOpenChange?.(false);
    if (refocus) button.current?.focus();
  };

  useEffect(() => {
    if (!open) return;
    menu.current?.querySelectorAll<HTMLElement>('[role=menuitem]')[focusAt]?.focus();
  }, [open, focusAt]);

  useEffect(() => {
    if (!open) return;
    const away = (e: PointerEvent) => {
      const t = e.target as Node;
      if (!menu.current?.contains(t) && !button.current?.contains(t)) hide(false);
    };
    document.addEventListener('pointerdown', away);
    return () => document.removeEventListener('pointerdown', away);
  });

  const onMenuKey = (e: KeyboardEvent) => {
    const n = items.length;
    const moves: Record<string, number> = {
      ArrowDown: (focusAt + 1) % n,
      ArrowUp: (focusAt - 1 + n) % n,
      Home: 0,
      End: n - 1,
    };
    if (e.key in moves) {
      e.preventDefault();
      setFocusAt(moves[e.key] as number);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      hide(true);
    } else if (e.key === 'Tab') hide(false);
  };

  return (
    <span className="menu-button">
      <button
        ref={button}
        type="button"
        className="btn btn--small btn--ghost menu-button__trigger"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => (open ? hide(false) : show(0))}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            show(e.key === 'ArrowDown' ? 0 : items.length - 1);
          }
        }}
      >
        <span aria-hidden="true">…</span>
      </button>
      {open ? (
        <ul
          ref={menu}
          id={id}
          role="menu"
          aria-label={label}
          className="menu-button__menu"
          onKeyDown={onMenuKey}
        >
          {items.map((item, i) => (
            <li key={item.id} role="none">
              <button
                type="button"
                role="menuitem"
                tabIndex={i === focusAt ? 0 : -1}
                className={`menu-button__item${item.danger ? ' menu-button__item--danger' : ''}`}
                onClick={() => {
                  hide(true);
                  item.run();
                }}
              >
                {item.label}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </span>
  );
}
