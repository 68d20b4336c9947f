import { useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { Target } from '../../../../src-shared/api/common';
import type { ComposeWhen } from '../../../../src-shared/ipc';
import { describeError } from '../../app/describe-error';
import { toLocalInput } from '../../app/format';
import { serviceNow } from '../../app/use-now';
import { useComposeStore } from '../../stores/use-compose-store';
import { useQueueStore } from '../../stores/use-queue-store';
import { tomorrowAt, tomorrowLabel } from './quick-times';
import { WhenTime } from './WhenTime';

/**
 * The quick ways to pick when: the next free slot of the queue's posting times (offered once any account has
 * one), tomorrow at 9 in the person's zone, or "Pick a time…", which opens the date and time field. Each
 * switches the post to Schedule. "Now" is the service's time, as the service judges a schedule.
 */
export function WhenPicks({
  when,
  localAt,
  scheduledAt,
  now,
  targets,
}: {
  readonly when: ComposeWhen;
  readonly localAt: string;
  readonly scheduledAt: string | null;
  readonly now: number;
  readonly targets: readonly Target[];
}) {
  const { setWhen, setLocalAt } = useComposeStore(
    useShallow((s) => ({ setWhen: s.setWhen, setLocalAt: s.setLocalAt })),
  );
  const { schedules, loadQueue, plan } = useQueueStore(
    useShallow((s) => ({ schedules: s.schedules, loadQueue: s.load, plan: s.plan })),
  );
  const [note, setNote] = useState('');
  const [picking, setPicking] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  // The posting times as they are now (set on the Queue screen, maybe a moment ago): read each time Compose opens.
  useEffect(() => void loadQueue(), [loadQueue]);
  // "Pick a time…": once the field is on screen, it takes focus and opens its picker where the browser has one.
  useEffect(() => {
    if (!picking || !input.current) return;
    setPicking(false);
    input.current.focus();
    try {
      input.current.showPicker();
    } catch {
      // No picker without a user gesture in some hosts: the focused field is typed into instead.
    }
  }, [picking, when]);
  const hasSlots = (schedules.data ?? []).some((q) => q.slots.length > 0);

  const at = (value: string, said = '') => {
    setWhen('schedule');
    setLocalAt(value);
    setNote(said);
  };
  const nextSlot = async () => {
    if (targets.length === 0) return setNote('Pick accounts first: the free slot is theirs.');
    const r = await plan([...targets]);
    if (!r.ok) return setNote(describeError(r.error));
    const first = Math.min(...r.value.posts.map((p) => Date.parse(p.at)));
    at(
      toLocalInput(new Date(first)),
      r.value.posts.length > 1 ? 'These accounts share no posting time: this is the earliest of theirs.' : '',
    );
  };

  return (
    <div className="when-picks">
      <div className="when-picks__quick" role="group" aria-label="Quick times">
        {hasSlots ? (
          <button type="button" className="btn btn--small" onClick={() => void nextSlot()}>
            Next free slot
          </button>
        ) : null}
        <button type="button" className="btn btn--small" onClick={() => at(tomorrowAt(serviceNow()))}>
          {tomorrowLabel()}
        </button>
        <button
          type="button"
          className="btn btn--small"
          onClick={() => {
            setWhen('schedule');
            setNote('');
            setPicking(true);
          }}
        >
          Pick a time…
        </button>
      </div>
      <WhenTime when={when} localAt={localAt} scheduledAt={scheduledAt} now={now} inputRef={input} />
      {note ? (
        <p className="field__hint" role="status">
          {note}
        </p>
      ) : null}
    </div>
  );
}
