import { useState, type FormEvent } from 'react';
import type { Account } from '../../../../src-shared/api/accounts';
import type { BridgeError } from '../../../../src-shared/ipc';
import { TimeZoneName, type AccountQueue } from '../../../../src-shared/queue';
import { localZone } from '../../app/format';
import { formatWallTime } from '../../app/wall-time';
import { DayPicker } from '../../components/DayPicker';
import { Dialog } from '../../components/Dialog';
import { TimeOfDayPicker } from '../../components/TimeOfDayPicker';
import { TimeZoneField } from '../../components/TimeZoneField';
import { ErrorAlert } from '../../components/states';
import { useQueueStore } from '../../stores/use-queue-store';
import { toast } from '../../stores/use-toast-store';
import { AccountPicker } from './AccountPicker';
import { planAdd } from './slot-plan';
import { ZoneNotes } from './ZoneNotes';

/** "+ Add posting time": days, a time and accounts; saved into each account's weekly slots. */
export function AddTimeDialog({
  accounts,
  queues,
  onClose,
}: {
  readonly accounts: readonly Account[];
  readonly queues: readonly AccountQueue[];
  readonly onClose: () => void;
}) {
  const saveWith = useQueueStore((s) => s.saveWith);
  const [days, setDays] = useState<ReadonlySet<number>>(new Set([1, 2, 3, 4, 5]));
  const [time, setTime] = useState('09:00');
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set(accounts.map((a) => a.id)));
  const [zone, setZone] = useState(localZone());
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Readonly<BridgeError> | null>(null);

  const zoneOk = TimeZoneName.safeParse(zone.trim()).success;
  const plan = zoneOk
    ? planAdd(queues, { days: [...days], time, zone: zone.trim(), accountIds: [...chosen] }, new Date())
    : [];
  const name = (id: string) => accounts.find((a) => a.id === id)?.name ?? 'An account';
  const full = plan.find((p) => p.tooMany);
  const problems = {
    days: days.size === 0 ? 'Days: pick at least one day.' : null,
    accounts: chosen.size === 0 ? 'Accounts: pick at least one account.' : null,
    zone: zoneOk ? null : 'Time zone: pick one from the list, such as Europe/Berlin.',
    full: full
      ? `${name(full.account_id)} would have more than 70 posting times a week, the most an account can have.`
      : null,
  };
  const problem = Object.values(problems).find(Boolean) ?? null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (problem || busy) return;
    setBusy(true);
    setError(null);
    // Planned again on the schedules as saved now: the dialog's notes were worked out on those it opened with.
    const r = await saveWith((saved) =>
      planAdd(
        saved,
        { days: [...days], time, zone: zone.trim(), accountIds: [...chosen] },
        new Date(),
      ).filter((p) => p.added.length > 0 && !p.tooMany),
    );
    setBusy(false);
    if (!r.ok) return setError(r.error);
    toast(
      'success',
      `Posting time added: ${formatWallTime(time)} for ${plan.length === 1 ? name(plan[0]?.account_id ?? '') : `${plan.length} accounts`}.`,
    );
    onClose();
  };

  return (
    <Dialog
      open
      title="Add posting time"
      onClose={onClose}
      footer={
        <div className="btn-row">
          <span className="spacer" />
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="queue-add-time" className="btn btn--primary" disabled={busy}>
            {busy ? 'Adding…' : 'Add posting time'}
          </button>
        </div>
      }
    >
      <form
        id="queue-add-time"
        className="form-stack"
        aria-label="Add posting time"
        onSubmit={(e) => void submit(e)}
      >
        <DayPicker label="Days" value={days} onChange={setDays} error={tried ? problems.days : null} />
        <TimeOfDayPicker label="Time" value={time} onChange={setTime} />
        <AccountPicker
          accounts={accounts}
          value={chosen}
          onChange={setChosen}
          error={tried ? problems.accounts : null}
        />
        <TimeZoneField
          hint="The time is read in this zone, through daylight-saving changes."
          value={zone}
          onChange={setZone}
        />
        <ZoneNotes plan={plan} name={name} />
        {tried && (problems.zone ?? problems.full) ? (
          <p className="alert alert--error" role="alert">
            {problems.zone ?? problems.full}
          </p>
        ) : null}
        {error ? <ErrorAlert error={error} title="The posting time was not added" /> : null}
      </form>
    </Dialog>
  );
}
