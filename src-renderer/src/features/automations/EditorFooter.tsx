import type { AutomationView } from '../../../../src-shared/ipc';
import type { AutomationStatusChange } from '../../stores/use-automations-store';
import { StatusButtons } from './StatusButtons';

/** The editor's footer: an automation's status buttons, then Cancel and the save button. */
export function EditorFooter({
  automation,
  busy,
  saving,
  invalid,
  formId,
  confirmRemove,
  onAskRemove,
  onChange,
  onClose,
}: {
  readonly automation: AutomationView | null;
  readonly busy: boolean;
  readonly saving: boolean;
  readonly invalid: boolean;
  readonly formId: string;
  readonly confirmRemove: boolean;
  readonly onAskRemove: () => void;
  readonly onChange: (what: AutomationStatusChange) => void;
  readonly onClose: () => void;
}) {
  return (
    <div className="btn-row automation-editor__footer">
      {automation ? (
        <StatusButtons
          status={automation.status}
          busy={busy}
          confirmRemove={confirmRemove}
          onAskRemove={onAskRemove}
          onChange={onChange}
        />
      ) : null}
      <span className="spacer" />
      <button type="button" className="btn" onClick={onClose}>
        Cancel
      </button>
      <button type="submit" form={formId} className="btn btn--primary" disabled={busy || invalid}>
        {saving ? 'Saving…' : automation ? 'Save changes' : 'Create automation'}
      </button>
    </div>
  );
}
