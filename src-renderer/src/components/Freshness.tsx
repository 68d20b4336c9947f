import { describeError } from '../app/describe-error';
import { formatRelative, formatTime } from '../app/format';
import { useNow } from '../app/use-now';
import type { Loadable } from '../stores/loadable';
import { IconAlert } from './icons';

/** Data a screen loads as the loading, error and freshness lines speak of it. */
export interface LoadView {
  readonly state: Loadable<unknown>;
  /** What the data is, for the sentences: "the articles", "the inbox", "this skill". */
  readonly what: string;
  /** Loads again; called without arguments. */
  readonly onRetry: () => unknown;
}

/**
 * When a screen's data was fetched, and, when the last refresh failed, that it failed, why, how old the data
 * shown is, and a way to try again. The same line on every screen, fed by the same `Loadable`; a first load
 * that fails has no data to keep, and `ErrorState` says so instead.
 */
export function Freshness({ state, what, onRetry }: LoadView) {
  const now = useNow(15_000);
  const retry = () => void onRetry();
  if (state.data === null) return null;
  const at = state.fetchedAt;
  const when =
    at === null
      ? null
      : Math.max(now, at) - at < 60_000
        ? 'just now'
        : formatRelative(new Date(at).toISOString(), now);
  if (state.error) {
    return (
      <div className="freshness freshness--failed" role="alert">
        <IconAlert size={14} />
        <p className="freshness__text">
          <strong>Could not refresh {what}.</strong> {describeError(state.error)}{' '}
          {at === null
            ? 'Showing what this computer kept from before.'
            : `Showing what was loaded ${when}, at ${formatTime(new Date(at).toISOString())}.`}
        </p>
        <button type="button" className="btn btn--small" disabled={state.loading} onClick={retry}>
          {state.loading ? 'Trying again…' : 'Try again'}
        </button>
      </div>
    );
  }
  return (
    <p className="freshness faint" aria-live="polite">
      {state.loading ? 'Refreshing…' : when ? `Updated ${when}` : null}
    </p>
  );
}
