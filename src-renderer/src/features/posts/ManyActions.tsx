import { useMemo, useState, type ReactNode } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { Account } from '../../../../src-shared/api/accounts';
import type { ManyChange, PostGroup } from '../../../../src-shared/ipc/post-groups';
import { plainName } from '../../app/bidi';
import { describeError } from '../../app/describe-error';
import { fromLocalInput, toLocalInput } from '../../app/format';
import { PLATFORM_META } from '../../app/platforms';
import { usePostGroupsStore, type ChangeRun } from '../../stores/use-post-groups-store';
import { toast } from '../../stores/use-toast-store';
import { ActionButton } from '../../components/ActionButton';
import { offersOnPost, whyNotOnPost } from './delivery-actions';
import { TextInput } from '../../components/Field';
import { Options } from '../../components/Filters';

const UNITS = [
  { value: 'hours', label: 'hours', ms: 3_600_000 },
  { value: 'days', label: 'days', ms: 86_400_000 },
  { value: 'minutes', label: 'minutes', ms: 60_000 },
] as const;

/** What each change did, in words: "Moved", "Spread", … */
const DONE: Readonly<Record<ManyChange['kind'], string>> = {
  shift: 'Moved',
  spread: 'Spread',
  queue: 'Put in queue slots',
  addTargets: 'Added accounts to',
  cancel: 'Cancelled to draft',
  delete: 'Deleted',
};

/** The bar over the list while posts are selected: one change for all of them. */
export function ManyActions({ accounts }: { readonly accounts: readonly Account[] }) {
  const { selected, busy, changeSelected, clearSelection, groups } = usePostGroupsStore(
    useShallow((s) => ({
      groups: s.groups.data,
      selected: s.selected,
      busy: s.busy,
      changeSelected: s.changeSelected,
      clearSelection: s.clearSelection,
    })),
  );
  const [amount, setAmount] = useState('1');
  const [unit, setUnit] = useState<(typeof UNITS)[number]['value']>('days');
  const [from, setFrom] = useState(() => toLocalInput(new Date(Date.now() + 86_400_000)));
  const [to, setTo] = useState(() => toLocalInput(new Date(Date.now() + 7 * 86_400_000)));
  const [account, setAccount] = useState('');
  const candidates = useMemo(
    () => accounts.filter((a) => !PLATFORM_META[a.platform].postsUnavailable),
    [accounts],
  );
  // Offered when some selected post allows it (the transition table); each post's own outcome says the rest.
  const chosen = useMemo(
    () => (groups ?? []).filter((g) => selected.has(g.post_id)).map((g) => g.deliveries),
    [groups, selected],
  );
  const gate = (action: 'cancel' | 'delete'): string | null =>
    chosen.length === 0 || chosen.some((ds) => offersOnPost(ds, action))
      ? null
      : whyNotOnPost(chosen[0] ?? [], action);
  const noCancel = gate('cancel');
  const noDelete = gate('delete');
  const n = selected.size;
  if (n === 0) return null;

  const apply = async (change: ManyChange) => {
    const r = await changeSelected(change);
    if (!r.ok) toast('error', `Nothing changed: ${describeError(r.error, 'update')}`);
  };
  const shiftMs = Number(amount) * (UNITS.find((u) => u.value === unit)?.ms ?? 0);
  const spreadFrom = fromLocalInput(from);
  const spreadTo = fromLocalInput(to);

  return (
    <section className="card many-actions" aria-label="Selected posts">
      <div className="many-actions__head">
        <strong aria-live="polite">
          {n.toLocaleString()} {n === 1 ? 'post' : 'posts'} selected
        </strong>
        <ActionButton variant="ghost" onRun={clearSelection}>
          Clear selection
        </ActionButton>
        {busy ? <span className="spinner" role="status" aria-label="Changing posts" /> : null}
      </div>
      <div className="many-actions__groups">
        <ActionGroup
          label="Move"
          onSubmit={() => {
            if (Number.isFinite(shiftMs) && shiftMs !== 0)
              void apply({ kind: 'shift', by_ms: Math.round(shiftMs) });
          }}
        >
          <label htmlFor="many-shift">Move by</label>
          <TextInput
            id="many-shift"
            className="many-actions__number"
            type="number"
            step="1"
            value={amount}
            onValue={setAmount}
          />
          <select
            aria-label="Unit"
            className="select"
            value={unit}
            onChange={(e) => setUnit(e.target.value as typeof unit)}
          >
            <Options of={UNITS} />
          </select>
          <ActionButton type="submit" busy={busy || !shiftMs}>
            Move
          </ActionButton>
        </ActionGroup>
        <ActionGroup
          label="Spread"
          onSubmit={() => {
            if (spreadFrom && spreadTo) void apply({ kind: 'spread', from: spreadFrom, to: spreadTo });
          }}
        >
          <label htmlFor="many-from">Spread from</label>
          <TextInput id="many-from" type="datetime-local" value={from} onValue={setFrom} />
          <label htmlFor="many-to">to</label>
          <TextInput id="many-to" type="datetime-local" value={to} onValue={setTo} />
          <ActionButton
            type="submit"
            busy={busy || !spreadFrom || !spreadTo || Date.parse(spreadFrom) > Date.parse(spreadTo)}
          >
            Spread
          </ActionButton>
          <ActionButton busy={busy} onRun={() => void apply({ kind: 'queue' })}>
            Into queue slots
          </ActionButton>
        </ActionGroup>
        <ActionGroup
          label="Add an account"
          onSubmit={() => {
            const a = candidates.find((c) => c.id === account);
            if (a)
              void apply({
                kind: 'addTargets',
                targets: [{ platform: a.platform, social_account_id: a.id }],
              });
          }}
        >
          <label htmlFor="many-account">Add account</label>
          <select
            id="many-account"
            className="select"
            value={account}
            onChange={(e) => setAccount(e.target.value)}
          >
            <option value="">Choose…</option>
            {candidates.map((a) => (
              <option key={a.id} value={a.id}>
                {plainName(a.name)} ({PLATFORM_META[a.platform].label})
              </option>
            ))}
          </select>
          <ActionButton type="submit" busy={busy || !account}>
            Add
          </ActionButton>
        </ActionGroup>
        <div className="many-actions__group">
          {noCancel ? null : (
            <ActionButton busy={busy} onRun={() => void apply({ kind: 'cancel' })}>
              Cancel to draft
            </ActionButton>
          )}
          {noDelete ? (
            <span className="muted" role="note">
              {noDelete}
            </span>
          ) : (
            <ActionButton
              variant="danger"
              busy={busy}
              confirm={{
                question: `Delete ${n === 1 ? 'this post' : `these ${n.toLocaleString()} posts`}?`,
                yes: 'Yes, delete',
                keep: 'Keep them',
              }}
              onRun={() => void apply({ kind: 'delete' })}
            >
              Delete…
            </ActionButton>
          )}
        </div>
      </div>
    </section>
  );
}

/** What the last change did, post by post, and "Retry failed" for only the ones that failed. */
export function RunResults({ groups }: { readonly groups: readonly PostGroup[] }) {
  const { run, busy, retryFailed, dismissRun } = usePostGroupsStore(
    useShallow((s) => ({ run: s.run, busy: s.busy, retryFailed: s.retryFailed, dismissRun: s.dismissRun })),
  );
  const captions = useMemo(
    () => new Map(groups.map((g) => [g.post_id, g.deliveries[0]?.caption ?? ''] as const)),
    [groups],
  );
  if (!run) return null;
  const bad = run.outcomes.filter((o) => !o.ok);
  const good = run.outcomes.length - bad.length;
  return (
    <section
      className={`card many-results${bad.length ? ' many-results--failed' : ''}`}
      aria-label="Results"
      data-testid="many-results"
    >
      <p role="status" className="many-results__summary">
        {summary(run, good)}
      </p>
      {bad.length > 0 ? (
        <details className="many-results__details">
          <summary>
            {bad.length.toLocaleString()} {bad.length === 1 ? 'post was' : 'posts were'}{' '}
            {bad.every((o) => o.unknown) ? 'not confirmed by the service' : 'not changed, or not confirmed'}
          </summary>
          <ul className="many-results__list" aria-label="Not changed">
            {bad.slice(0, 50).map((o) => (
              <li key={o.post_id}>
                <span className="many-results__caption">
                  {plainName(captions.get(o.post_id) || 'A post')}
                </span>
                {' — '}
                <span>{o.error}</span>
              </li>
            ))}
            {bad.length > 50 ? <li className="faint">and {bad.length - 50} more</li> : null}
          </ul>
        </details>
      ) : null}
      <span className="btn-row">
        {bad.length > 0 ? (
          <ActionButton
            variant="primary"
            busy={busy}
            onRun={() =>
              void retryFailed().then((r) => {
                if (!r.ok) toast('error', `Not retried: ${describeError(r.error, 'update')}`);
              })
            }
          >
            Retry failed ({bad.length.toLocaleString()})
          </ActionButton>
        ) : null}
        <ActionButton variant="ghost" label="Dismiss the results" onRun={dismissRun}>
          Dismiss
        </ActionButton>
      </span>
    </section>
  );
}

function summary(run: ChangeRun, good: number): string {
  const total = run.outcomes.length;
  const what = `${DONE[run.change.kind]} ${good.toLocaleString()} of ${total.toLocaleString()} ${total === 1 ? 'post' : 'posts'}`;
  return run.requests > 0
    ? `${what} (${run.requests.toLocaleString()} ${run.requests === 1 ? 'request' : 'requests'} to the service).`
    : `${what}.`;
}

/** One group of the bar: its controls, and its action run on submit (Enter in a field, or its button). */
function ActionGroup({
  label,
  onSubmit,
  children,
}: {
  readonly label: string;
  readonly onSubmit: () => void;
  readonly children: ReactNode;
}) {
  return (
    <form
      className="many-actions__group"
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </form>
  );
}
