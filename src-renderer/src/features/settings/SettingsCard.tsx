import type { ReactNode } from 'react';

interface SettingsCardProps {
  /** Names the card's title element (`settings-<id>-title`), which labels the card. */
  readonly id: string;
  readonly title: string;
  /** Beside the title: a status badge, when the card has one. */
  readonly badge?: ReactNode;
  /** The body's layout class: a stack, a grid, or the card's own. */
  readonly body?: string;
  readonly children: ReactNode;
}

/** One card of Settings: a titled section whose title names it, and its body. */
export function SettingsCard({ id, title, badge, body, children }: SettingsCardProps) {
  return (
    <section className="card" aria-labelledby={`settings-${id}-title`}>
      <div className="card__header">
        <h2 id={`settings-${id}-title`}>{title}</h2>
        {badge}
      </div>
      <div className={body ? `card__body ${body}` : 'card__body'}>{children}</div>
    </section>
  );
}
