import type { RefObject } from 'react';
import type { ComposeWhen } from '../../../../src-shared/ipc';
import { formatDateTime, formatRelative, localZone, toLocalInput } from '../../app/format';
import { useComposeStore } from '../../stores/use-compose-store';

/**
 * The time the post goes out, in words and in the person's zone: the date and time field when it is scheduled
 * (the stamp the service gets folded away in a details area), a sentence otherwise.
 */
export function WhenTime({
  when,
  localAt,
  scheduledAt,
  now,
  inputRef,
}: {
  readonly when: ComposeWhen;
  readonly localAt: string;
  readonly scheduledAt: string | null;
  readonly now: number;
  readonly inputRef: RefObject<HTMLInputElement | null>;
}) {
  const setLocalAt = useComposeStore((s) => s.setLocalAt);
  if (when !== 'schedule') {
    return (
      <p className="muted when-time__note">
        {when === 'now'
          ? 'Goes out to every selected account right away.'
          : 'Kept as a draft: nothing is published until you schedule it.'}
      </p>
    );
  }
  return (
    <div className="when-time">
      <label className="field__label" htmlFor="compose-when-at">
        Date and time ({localZone()})
      </label>
      <input
        ref={inputRef}
        id="compose-when-at"
        className="input when-time__input"
        type="datetime-local"
        value={localAt}
        min={toLocalInput(new Date(now))}
        onChange={(e) => setLocalAt(e.target.value)}
        aria-describedby="compose-when-utc"
      />
      <span className="field__hint when-time__words" id="compose-when-utc">
        {scheduledAt
          ? `Goes out ${formatDateTime(scheduledAt)}, ${localZone()} time (${formatRelative(scheduledAt, now)}).`
          : 'Pick a date and time.'}
      </span>
      {scheduledAt ? (
        <details className="field__details">
          <summary>As sent to the service</summary>
          <code>{scheduledAt.replace('.000Z', 'Z')}</code> (UTC)
        </details>
      ) : null}
    </div>
  );
}
