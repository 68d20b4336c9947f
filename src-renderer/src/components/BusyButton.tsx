import type { ReactNode } from 'react';

/**
 * A button for one of a card's actions that run one at a time (`busy` names the one running, or is null): off
 * while any of them runs, and saying `working` instead of its words while its own does.
 */
export function BusyButton<A extends string>({
  action,
  busy,
  working,
  onRun,
  className = 'btn',
  off = false,
  describedBy,
  children,
}: {
  readonly action: A;
  readonly busy: A | null;
  readonly working: ReactNode;
  readonly onRun: () => unknown;
  readonly className?: string;
  /** Off for another reason too (nothing to act on yet). */
  readonly off?: boolean;
  readonly describedBy?: string;
  readonly children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={className}
      disabled={busy !== null || off}
      aria-describedby={describedBy}
      onClick={() => void onRun()}
    >
      {busy === action ? working : children}
    </button>
  );
}
