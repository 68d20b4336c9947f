import { useState, type ReactNode } from 'react';

export type ActionVariant = 'plain' | 'primary' | 'danger' | 'ghost';

const CLASS: Readonly<Record<ActionVariant, string>> = {
  plain: 'btn btn--small',
  primary: 'btn btn--small btn--primary',
  danger: 'btn btn--small btn--danger',
  ghost: 'btn btn--small btn--ghost',
};

/** Asked before the action runs: the question, the yes button's words, and the words that keep things as they are. */
export interface Confirm {
  readonly question: ReactNode;
  readonly yes: string;
  readonly keep: string;
}

/**
 * One small action: a button, disabled while something runs, that may ask first. With `confirm`, the first press
 * shows the question beside "yes" and "keep" buttons, and only "yes" runs the action. Every small action row is
 * made of these: on Posts (a post's deliveries, the bar over selected posts, the results of a change), in the
 * Inbox (its drafts, their bar, the assistant's proposals) and the notice of posts queued locally.
 */
export function ActionButton({
  children,
  onRun,
  variant = 'plain',
  busy = false,
  label,
  confirm,
  type = 'button',
  title,
}: {
  readonly children: ReactNode;
  /** Not needed for a submit button: its form runs the action. */
  readonly onRun?: () => void;
  readonly variant?: ActionVariant;
  readonly busy?: boolean;
  /** The accessible name, when the visible words need their object ("Delete" → "Delete the X delivery"). */
  readonly label?: string;
  readonly confirm?: Confirm;
  readonly type?: 'button' | 'submit';
  /** A hint on hover: what the action will do. */
  readonly title?: string;
}) {
  const [asking, setAsking] = useState(false);
  if (confirm && asking)
    return (
      <span className="btn-row action-confirm" role="group" aria-label={label}>
        <span className="action-confirm__question">{confirm.question}</span>
        <button
          type="button"
          className={CLASS[variant === 'danger' ? 'danger' : 'primary']}
          disabled={busy}
          onClick={() => {
            setAsking(false);
            onRun?.();
          }}
        >
          {confirm.yes}
        </button>
        <button type="button" className={CLASS.ghost} onClick={() => setAsking(false)}>
          {confirm.keep}
        </button>
      </span>
    );
  return (
    <button
      type={type}
      className={CLASS[variant]}
      disabled={busy}
      aria-label={label}
      title={title}
      onClick={confirm ? () => setAsking(true) : onRun}
    >
      {children}
    </button>
  );
}
