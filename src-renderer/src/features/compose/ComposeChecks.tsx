import type { RefObject } from 'react';
import type { BridgeError } from '../../../../src-shared/ipc';
import { ErrorAlert } from '../../components/states';
import type { PostChecks } from './compose-checks';

/** The id Send is described by: what still holds the post back. */
export const BLOCKERS_ID = 'compose-blockers';

/**
 * What stands between the post and Send: the service's refusal of the last try, the platforms' warnings, and
 * what must change first (each naming the field and the limit). Ctrl/Cmd+Enter with something left brings
 * focus here.
 */
export function ComposeChecks({
  checks,
  error,
  listRef,
}: {
  readonly checks: PostChecks;
  readonly error: Readonly<BridgeError> | null;
  readonly listRef: RefObject<HTMLUListElement | null>;
}) {
  if (!error && checks.warnings.length === 0 && checks.blockers.length === 0) return null;
  return (
    <section className="compose-checks" aria-label="Checks">
      {error ? <ErrorAlert error={error} title="The post was not created" /> : null}
      {checks.warnings.length > 0 ? (
        <ul className="compose__warnings" aria-label="Platform warnings">
          {checks.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      ) : null}
      {checks.blockers.length > 0 ? (
        <ul
          ref={listRef}
          id={BLOCKERS_ID}
          className="compose__blockers"
          aria-label="Before you can submit"
          tabIndex={-1}
        >
          {checks.blockers.map((b) => (
            <li key={b}>{b}</li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
