import type { BridgeError, BridgeIssue } from '../../../../src-shared/ipc';
import { ErrorAlert } from '../../components/states';

/** Why the automation was not saved: the service's word, or its issues about fields the form does not show. */
export function SaveErrors({
  error,
  unshown,
}: {
  readonly error: Readonly<BridgeError> | null;
  readonly unshown: readonly BridgeIssue[];
}) {
  if (!error) return null;
  if (!error.issues?.length) return <ErrorAlert error={error} />;
  return (
    <p className="alert alert--error" role="alert">
      {unshown.length > 0
        ? `Not saved: ${unshown.map((i) => i.message).join(' ')}`
        : 'Not saved: see the fields marked above.'}
    </p>
  );
}
