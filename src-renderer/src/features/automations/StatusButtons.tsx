import type { AutomationView } from '../../../../src-shared/ipc';
import type { AutomationStatusChange } from '../../stores/use-automations-store';

/** The editor's Pause or Resume, and Remove (asked twice: removing is for good). */
export function StatusButtons({
  status,
  busy,
  confirmRemove,
  onAskRemove,
  onChange,
}: {
  readonly status: AutomationView['status'];
  readonly busy: boolean;
  readonly confirmRemove: boolean;
  readonly onAskRemove: () => void;
  readonly onChange: (what: AutomationStatusChange) => void;
}) {
  return (
    <>
      {status === 'paused' ? (
        <button type="button" className="btn" disabled={busy} onClick={() => onChange('resume')}>
          Resume
        </button>
      ) : (
        <button type="button" className="btn" disabled={busy} onClick={() => onChange('pause')}>
          Pause
        </button>
      )}
      {confirmRemove ? (
        <button type="button" className="btn btn--danger" disabled={busy} onClick={() => onChange('remove')}>
          Remove for good
        </button>
      ) : (
        <button type="button" className="btn btn--ghost" disabled={busy} onClick={() => onAskRemove()}>
          Remove…
        </button>
      )}
    </>
  );
}
