import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { AutomationView, BridgeError } from '../../../../src-shared/ipc';
import { issuesByField } from '../../app/describe-error';
import { localZone } from '../../app/format';
import { Dialog } from '../../components/Dialog';
import { Field } from '../../components/Field';
import { cronToPick, pickProblem, pickToCron, type SchedulePick } from './schedule/cron-pick';
import { SchedulePicker } from './schedule/SchedulePicker';
import { TimeZoneField } from '../../components/TimeZoneField';
import { AccountChoice } from './AccountChoice';
import { StatusButtons } from './StatusButtons';
import { Segmented } from '../../components/Segmented';
import { ErrorAlert } from '../../components/states';
import { useAccountsStore } from '../../stores/use-accounts-store';
import { useAutomationsStore, type AutomationStatusChange } from '../../stores/use-automations-store';
import { toast } from '../../stores/use-toast-store';

type Mode = 'draft' | 'auto';

const MODES: readonly { value: Mode; label: string }[] = [
  { value: 'draft', label: 'Drafts' },
  { value: 'auto', label: 'Auto publish' },
];

const SHOWN_FIELDS = new Set(['name', 'schedule', 'targets']);

const DONE: Readonly<Record<AutomationStatusChange, string>> = {
  pause: 'paused',
  resume: 'resumed',
  remove: 'removed',
};

/**
 * Create or edit an automation of the sandbox. The sandbox checks it as the service does (a five-part
 * schedule, a known time zone, the owner's accounts); executors pick a change up on their next sync.
 */
export function AutomationEditor({
  automation,
  onClose,
}: {
  /** Null: a new automation. */
  readonly automation: AutomationView | null;
  readonly onClose: () => void;
}) {
  const { create, update, change, saving } = useAutomationsStore(
    useShallow((s) => ({ create: s.create, update: s.update, change: s.change, saving: s.saving })),
  );
  const { accounts, ensureAccounts } = useAccountsStore(
    useShallow((s) => ({ accounts: s.accounts, ensureAccounts: s.ensure })),
  );
  useEffect(() => void ensureAccounts(), [ensureAccounts]);

  const [name, setName] = useState(automation?.name ?? '');
  const [mode, setMode] = useState<Mode>(automation?.execution_mode ?? 'draft');
  const [pick, setPick] = useState<SchedulePick>(() =>
    cronToPick(automation?.schedule.cron ?? '0 9 * * 1-5'),
  );
  // The picker's own check, said beside its field once the person tries to save (or writes a cron).
  const [tried, setTried] = useState(false);
  const [timezone, setTimezone] = useState(automation?.schedule.timezone ?? localZone());
  const [instructions, setInstructions] = useState(automation?.instructions ?? '');
  const [targets, setTargets] = useState<ReadonlySet<string>>(
    new Set(automation?.targets.map((t) => t.social_account_id) ?? []),
  );
  const [error, setError] = useState<Readonly<BridgeError> | null>(null);
  const [confirmRemove, setConfirmRemove] = useState(false);

  const list = useMemo(() => accounts.data ?? [], [accounts.data]);
  const byId = useMemo(() => new Map(list.map((a) => [a.id, a])), [list]);
  const fieldErrors = issuesByField(error);
  // Issues about a field the form does not show go into the alert instead.
  const unshown = (error?.issues ?? []).filter((i) => !SHOWN_FIELDS.has(i.path));
  const busy = saving !== null;
  const key = automation?.id ?? 'new';

  const toggle = (id: string) =>
    setTargets((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setTried(true);
    if (problem) return;
    const fields = {
      name: name.trim(),
      execution_mode: mode,
      schedule: { cron: pickToCron(pick), timezone: timezone.trim() },
      instructions,
      targets: [...targets].flatMap((id) => {
        const a = byId.get(id) ?? automation?.targets.find((t) => t.social_account_id === id);
        return a ? [{ social_account_id: id, platform: a.platform }] : [];
      }),
    };
    const r = automation ? await update({ id: automation.id, ...fields }) : await create(fields);
    if (!r.ok) {
      setError(r.error);
      return;
    }
    toast(
      'success',
      automation
        ? `${r.value.name} saved (revision ${r.value.revision}); executors pick it up on their next sync.`
        : `${r.value.name} created.`,
    );
    onClose();
  };

  const changeStatus = async (what: AutomationStatusChange) => {
    if (!automation) return;
    setError(null);
    const r = await change(automation.id, what);
    if (!r.ok) {
      setError(r.error);
      return;
    }
    toast('success', `${r.value.name} ${DONE[what]}.`);
    onClose();
  };

  const problem = pickProblem(pick);
  const invalid = name.trim() === '' || timezone.trim() === '';
  const formId = `automation-form-${key}`;

  return (
    <Dialog
      open
      wide
      title={automation ? `Edit ${automation.name}` : 'New automation'}
      onClose={onClose}
      footer={
        <div className="btn-row automation-editor__footer">
          {automation ? (
            <StatusButtons
              status={automation.status}
              busy={busy}
              confirmRemove={confirmRemove}
              onAskRemove={() => setConfirmRemove(true)}
              onChange={(what) => void changeStatus(what)}
            />
          ) : null}
          <span className="spacer" />
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form={formId} className="btn btn--primary" disabled={busy || invalid}>
            {saving === key ? 'Saving…' : automation ? 'Save changes' : 'Create automation'}
          </button>
        </div>
      }
    >
      <form id={formId} className="form-stack" aria-label="Automation" onSubmit={(e) => void submit(e)}>
        {confirmRemove ? (
          <p className="alert alert--warning" role="status">
            Removing is for good: the automation stays listed as removed, so executors learn of it, and can no
            longer be changed.
          </p>
        ) : null}
        <Field label="Name" error={fieldErrors.name}>
          {({ id, describedBy, invalid: bad }) => (
            <input
              id={id}
              className="input"
              value={name}
              maxLength={200}
              aria-describedby={describedBy}
              aria-invalid={bad}
              onChange={(e) => setName(e.target.value)}
            />
          )}
        </Field>
        <div className="field">
          <span className="field__label">Mode</span>
          <Segmented label="Mode" value={mode} options={MODES} onChange={setMode} />
          <span className="field__hint">
            {mode === 'draft'
              ? 'Each run leaves drafts for you to review.'
              : 'Each run publishes: TikTok and YouTube by direct upload, the others through the service.'}
          </span>
        </div>
        <div className="form-grid">
          <SchedulePicker
            value={pick}
            onChange={setPick}
            error={(tried || pick.kind === 'custom' ? problem : null) ?? fieldErrors.schedule ?? null}
          />
          <TimeZoneField
            hint="The schedule's times are in this zone."
            value={timezone}
            onChange={setTimezone}
          />
        </div>
        <Field label="Instructions" hint="What the agent should make on each run.">
          {({ id, describedBy }) => (
            <textarea
              id={id}
              className="textarea"
              rows={4}
              value={instructions}
              aria-describedby={describedBy}
              onChange={(e) => setInstructions(e.target.value)}
            />
          )}
        </Field>
        <AccountChoice accounts={list} selected={targets} onToggle={toggle} error={fieldErrors.targets} />
        {error && !error.issues?.length ? <ErrorAlert error={error} /> : null}
        {error?.issues?.length ? (
          <p className="alert alert--error" role="alert">
            {unshown.length > 0
              ? `Not saved: ${unshown.map((i) => i.message).join(' ')}`
              : 'Not saved: see the fields marked above.'}
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}
