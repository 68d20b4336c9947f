import { useEffect, useId, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { Account } from '../../../../src-shared/api/accounts';
import type { AccountUpcoming, UpcomingSlot } from '../../../../src-shared/ipc/queue';
import { QueueSchedule, WEEKDAYS, type AccountQueue } from '../../../../src-shared/queue';
import { localZone } from '../../app/format';
import { PLATFORM_META } from '../../app/platforms';
import { Field } from '../../components/Field';
import { TimeZoneField } from '../../components/TimeZoneField';
import { Freshness } from '../../components/Freshness';
import { PageHeader } from '../../components/PageHeader';
import { PlatformMark } from '../../components/PlatformMark';
import { RefreshButton } from '../../components/RefreshButton';
import { AccountsGate } from '../../components/AccountsGate';
import { ErrorAlert, ErrorState, LoadingState } from '../../components/states';
import { useAccountsStore } from '../../stores/use-accounts-store';
import { useQueueStore } from '../../stores/use-queue-store';
import { toast } from '../../stores/use-toast-store';
import type { BridgeError } from '../../../../src-shared/ipc';
import './queue.css';

const DAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/** A slot's time as a person in the account's zone reads it. */
const inZone = (iso: string, timeZone: string): string =>
  new Intl.DateTimeFormat(undefined, {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(iso));

export function QueueScreen() {
  const { accounts, ensureAccounts, loadAccounts } = useAccountsStore(
    useShallow((s) => ({ accounts: s.accounts, ensureAccounts: s.ensure, loadAccounts: s.load })),
  );
  const { schedules, upcoming, load } = useQueueStore(
    useShallow((s) => ({ schedules: s.schedules, upcoming: s.upcoming, load: s.load })),
  );
  useEffect(() => {
    void ensureAccounts();
    void load();
  }, [ensureAccounts, load]);

  const postable = useMemo(
    () => (accounts.data ?? []).filter((a) => !PLATFORM_META[a.platform].postsUnavailable),
    [accounts.data],
  );

  return (
    <div className="page">
      <PageHeader
        title="Queue"
        subtitle="Posting times for each account. Add to queue (in Compose) puts a post at each account's next free time."
        actions={<RefreshButton onRefresh={() => void load()} />}
      />
      <Freshness state={upcoming} what="the queue" onRetry={() => void load()} />
      {/* The upcoming line above says when all was loaded; these speak only when their own refresh failed. */}
      {accounts.error ? (
        <Freshness state={accounts} what="the accounts" onRetry={() => void loadAccounts()} />
      ) : null}
      {schedules.error ? (
        <Freshness state={schedules} what="the posting times" onRetry={() => void load()} />
      ) : null}
      <AccountsGate accounts={accounts} usable={postable.length} onRetry={() => void loadAccounts()}>
        {schedules.data === null && schedules.error ? (
          <ErrorState
            error={schedules.error}
            title="Could not load the posting times"
            onRetry={() => void load()}
          />
        ) : upcoming.data === null && upcoming.error ? (
          <ErrorState error={upcoming.error} title="Could not load the queue" onRetry={() => void load()} />
        ) : schedules.data === null || upcoming.data === null ? (
          // The editors start from the saved times: shown before those arrive, they would start from defaults.
          <LoadingState label="Loading the queue…" />
        ) : (
          <div className="queue-list">
            {postable.map((a) => (
              <AccountCard
                key={a.id}
                account={a}
                queue={schedules.data?.find((q) => q.account_id === a.id) ?? null}
                upcoming={upcoming.data?.find((u) => u.account_id === a.id) ?? null}
              />
            ))}
          </div>
        )}
      </AccountsGate>
    </div>
  );
}

function AccountCard({
  account,
  queue,
  upcoming,
}: {
  readonly account: Account;
  readonly queue: AccountQueue | null;
  readonly upcoming: AccountUpcoming | null;
}) {
  const titleId = useId();
  return (
    <section className="card queue-card" aria-labelledby={titleId}>
      <div className="card__header">
        <h2 id={titleId} className="queue-card__title">
          <PlatformMark platform={account.platform} />
          {account.name}
        </h2>
        <span className="muted">
          {queue ? `${queue.slots.length} slots a week · ${queue.timezone}` : 'No slots yet'}
        </span>
      </div>
      <div className="card__body queue-card__body">
        <SlotEditor account={account} queue={queue} />
        <UpcomingList account={account} upcoming={upcoming} />
      </div>
    </section>
  );
}

function SlotEditor({ account, queue }: { readonly account: Account; readonly queue: AccountQueue | null }) {
  const save = useQueueStore((s) => s.save);
  const [days, setDays] = useState<ReadonlySet<number>>(
    () => new Set(queue ? queue.slots.map((s) => s.weekday) : [1, 2, 3, 4, 5]),
  );
  const [times, setTimes] = useState(() =>
    queue ? [...new Set(queue.slots.map((s) => s.time))].sort().join(', ') : '09:00',
  );
  const [timezone, setTimezone] = useState(queue?.timezone ?? localZone());
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<Readonly<BridgeError> | null>(null);

  const timeList = times
    .split(/[,\s]+/)
    .map((t) => t.trim())
    .filter(Boolean)
    .map((t) => (/^\d:\d\d$/.test(t) ? `0${t}` : t));
  const badTime = timeList.find((t) => !/^([01]\d|2[0-3]):[0-5]\d$/.test(t));
  const schedule = {
    timezone: timezone.trim(),
    slots: [...days].flatMap((weekday) => [...new Set(timeList)].map((time) => ({ weekday, time }))),
  };
  const checked = QueueSchedule.safeParse(schedule);
  const problem = badTime
    ? `"${badTime}" is not a time of day; write times as 09:00, 13:30.`
    : !checked.success && !QueueSchedule.shape.timezone.safeParse(schedule.timezone).success
      ? 'Pick a time zone from the list, such as Europe/Berlin.'
      : null;
  const mixed =
    queue !== null &&
    queue.slots.length !==
      new Set(queue.slots.map((s) => s.weekday)).size * new Set(queue.slots.map((s) => s.time)).size;

  const onSave = async () => {
    if (!checked.success || saving) return;
    setSaving(true);
    setError(null);
    const r = await save(account.id, checked.data);
    setSaving(false);
    if (!r.ok) setError(r.error);
    else
      toast(
        'success',
        r.value ? `Posting times saved for ${account.name}.` : `The queue of ${account.name} is now empty.`,
      );
  };

  return (
    <form
      className="form-stack queue-editor"
      aria-label={`Posting times of ${account.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        void onSave();
      }}
    >
      <fieldset className="queue-days">
        <legend className="field__label">Days</legend>
        {WEEKDAYS.map((d) => (
          <label key={d} className="checkbox">
            <input
              type="checkbox"
              checked={days.has(d)}
              onChange={(e) => {
                const next = new Set(days);
                if (e.target.checked) next.add(d);
                else next.delete(d);
                setDays(next);
              }}
            />
            {DAY_NAMES[d - 1]?.slice(0, 3)}
            <span className="visually-hidden">{DAY_NAMES[d - 1]?.slice(3)}</span>
          </label>
        ))}
      </fieldset>
      <Field
        label="Times"
        hint="On each day above, 24-hour, separated by commas: 09:00, 13:00."
        error={problem}
      >
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            className="input"
            value={times}
            spellCheck={false}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            onChange={(e) => setTimes(e.target.value)}
          />
        )}
      </Field>
      <TimeZoneField
        hint="The times are read in this zone, through daylight-saving changes."
        value={timezone}
        onChange={setTimezone}
      />
      {mixed ? <p className="field__hint">Saving sets every day above to the same times.</p> : null}
      {error ? <ErrorAlert error={error} title="The posting times were not saved" /> : null}
      <div>
        <button type="submit" className="btn btn--primary" disabled={!checked.success || saving}>
          {saving ? 'Saving…' : schedule.slots.length === 0 ? 'Clear the queue' : 'Save posting times'}
        </button>
      </div>
    </form>
  );
}

function UpcomingList({
  account,
  upcoming,
}: {
  readonly account: Account;
  readonly upcoming: AccountUpcoming | null;
}) {
  if (!upcoming || upcoming.slots.length === 0) {
    return <p className="muted">No upcoming slots: pick days and times, then save.</p>;
  }
  return (
    <div className="form-stack">
      <h3 className="queue-upcoming__title">Upcoming</h3>
      <ol className="queue-slots" aria-label={`Upcoming slots of ${account.name}`}>
        {upcoming.slots.map((s) => (
          <SlotRow key={s.at} slot={s} upcoming={upcoming} account={account} />
        ))}
      </ol>
      <p className="field__hint">Moving a post moves it on every account it goes to.</p>
    </div>
  );
}

function SlotRow({
  slot,
  upcoming,
  account,
}: {
  readonly slot: UpcomingSlot;
  readonly upcoming: AccountUpcoming;
  readonly account: Account;
}) {
  const move = useQueueStore((s) => s.move);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Readonly<BridgeError> | null>(null);
  const when = inZone(slot.at, upcoming.timezone);
  const free = upcoming.slots.filter((o) => o.posts.length === 0 && o.at !== slot.at);
  const [to, setTo] = useState('');
  const selectId = useId();

  const run = async (req: Parameters<typeof move>[0], done: string) => {
    setBusy(true);
    setError(null);
    const r = await move(req);
    setBusy(false);
    if (!r.ok) setError(r.error);
    else toast('success', done);
  };

  return (
    <li className={`queue-slot${slot.posts.length ? ' queue-slot--filled' : ''}`} aria-label={when}>
      <span className="queue-slot__when">{when}</span>
      {slot.posts.length === 0 ? (
        <span className="muted">Empty</span>
      ) : (
        slot.posts.map((p, i) => (
          <div key={p.delivery_id} className="queue-slot__post">
            <span className="queue-slot__caption">{p.caption || '(no caption)'}</span>
            {i === 0 ? (
              <div className="queue-slot__actions">
                <button
                  type="button"
                  className="btn btn--small"
                  disabled={busy || slot === upcoming.slots[0]}
                  onClick={() =>
                    void run(
                      { post_id: p.post_id, account_id: account.id, top: true },
                      'Moved to the top of the queue.',
                    )
                  }
                >
                  Move to top
                </button>
                <label className="visually-hidden" htmlFor={selectId}>
                  Move to another slot
                </label>
                <select
                  id={selectId}
                  className="input queue-slot__select"
                  value={to}
                  onChange={(e) => setTo(e.target.value)}
                >
                  <option value="">Another slot…</option>
                  {free.map((o) => (
                    <option key={o.at} value={o.at}>
                      {inZone(o.at, upcoming.timezone)}
                    </option>
                  ))}
                </select>
                <button
                  type="button"
                  className="btn btn--small"
                  disabled={busy || !to}
                  onClick={() =>
                    void run({ post_id: p.post_id, to }, `Moved to ${inZone(to, upcoming.timezone)}.`)
                  }
                >
                  Move
                </button>
              </div>
            ) : null}
          </div>
        ))
      )}
      {error ? <ErrorAlert error={error} title="The post was not moved" /> : null}
    </li>
  );
}
