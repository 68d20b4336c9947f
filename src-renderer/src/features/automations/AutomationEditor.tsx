import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { AutomationView, BridgeError } from '../../../../src-shared/ipc';
import { issuesByField } from '../../app/describe-error';
import { Dialog } from '../../components/Dialog';
import { pickProblem } from './schedule/cron-pick';
import { SchedulePicker } from './schedule/SchedulePicker';
import { TimeZoneField } from '../../components/TimeZoneField';
import { AccountChoice } from './AccountChoice';
import { ModeField } from './ModeField';
import { InstructionsField, NameField } from './TextFields';
import { SaveErrors } from './SaveErrors';
import { EditorFooter } from './EditorFooter';
import { useAutomationDraft } from './use-automation-draft';
import { useAccountsStore } from '../../stores/use-accounts-store';
import { useAutomationsStore, type AutomationStatusChange } from '../../stores/use-automations-store';
import { toast } from '../../stores/use-toast-store';

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

  const draft = useAutomationDraft(automation);
  // The picker's own check, said beside its field once the person tries to save (or writes a cron).
  const [tried, setTried] = useState(false);
  const [error, setError] = useState<Readonly<BridgeError> | null>(null);
  const [confirmRemove, setConfirmRemove] = useState(false);

  const list = useMemo(() => accounts.data ?? [], [accounts.data]);
  const byId = useMemo(() => new Map(list.map((a) => [a.id, a])), [list]);
  const fieldErrors = issuesByField(error);
  // Issues about a field the form does not show go into the alert instead.
  const unshown = (error?.issues ?? []).filter((i) => !SHOWN_FIELDS.has(i.path));
  const busy = saving !== null;
  const key = automation?.id ?? 'new';

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setTried(true);
    if (problem) return;
    const fields = draft.fields(byId);
    const r = automation ? await update({ id: automation.id, ...fields }) : await create(fields);
    if (!r.ok) {
      setError(r.error);
      return;
    }
    toast(
      'success',
      automation
        ? `${r.value.name} saved; executors pick the change up on their next sync.`
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

  const problem = pickProblem(draft.pick);
  const invalid = draft.name.trim() === '' || draft.timezone.trim() === '';
  const formId = `automation-form-${key}`;

  return (
    <Dialog
      open
      wide
      title={automation ? `Edit ${automation.name}` : 'New automation'}
      onClose={onClose}
      footer={
        <EditorFooter
          automation={automation}
          busy={busy}
          saving={saving === key}
          invalid={invalid}
          formId={formId}
          confirmRemove={confirmRemove}
          onAskRemove={() => setConfirmRemove(true)}
          onChange={(what) => void changeStatus(what)}
          onClose={onClose}
        />
      }
    >
      <form id={formId} className="form-stack" aria-label="Automation" onSubmit={(e) => void submit(e)}>
        {confirmRemove ? (
          <p className="alert alert--warning" role="status">
            Removing is for good: the automation stays listed as removed, so executors learn of it, and can no
            longer be changed.
          </p>
        ) : null}
        <NameField value={draft.name} onChange={draft.setName} error={fieldErrors.name} />
        <ModeField value={draft.mode} onChange={draft.setMode} />
        <div className="form-grid">
          <SchedulePicker
            value={draft.pick}
            onChange={draft.setPick}
            error={(tried || draft.pick.kind === 'custom' ? problem : null) ?? fieldErrors.schedule ?? null}
          />
          <TimeZoneField
            hint="The schedule's times are in this zone."
            value={draft.timezone}
            onChange={draft.setTimezone}
          />
        </div>
        <InstructionsField value={draft.instructions} onChange={draft.setInstructions} />
        <AccountChoice
          accounts={list}
          selected={draft.targets}
          onToggle={draft.toggle}
          error={fieldErrors.targets}
        />
        <SaveErrors error={error} unshown={unshown} />
      </form>
    </Dialog>
  );
}
