import type { BridgeError } from '../../../../src-shared/ipc';
import { ErrorAlert } from '../../components/states';

/** Where the post being written stands on this computer: kept, being kept, or not kept (and why). */
export function SaveNote({
  state,
  error,
}: {
  readonly state: 'idle' | 'saving' | 'saved' | 'failed';
  readonly error: Readonly<BridgeError> | null;
}) {
  if (state === 'failed' && error) {
    return <ErrorAlert error={error} title="This post is not kept on this computer" />;
  }
  return (
    <p className="compose__saved" role="status">
      {state === 'saving'
        ? 'Keeping a copy on this computer…'
        : state === 'saved'
          ? 'Kept on this computer'
          : ''}
    </p>
  );
}
