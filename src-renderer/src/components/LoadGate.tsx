import type { ReactNode } from 'react';
import { Freshness, type LoadView } from './Freshness';
import { ErrorState, LoadingState } from './states';

/**
 * What a screen or card shows of data it loads until it has some: "Loading X…" while the first load runs,
 * "Could not load X" with why and "Try again" when it failed, and otherwise its children (the data, or an
 * empty state). Data loaded once stays shown through a refresh, failed or not: `Freshness` says how old it is.
 */
export function LoadGate({
  freshness,
  children,
  ...view
}: LoadView & {
  /** Shows the `Freshness` line above, for data that is not shown beside its own. */
  readonly freshness?: boolean;
  readonly children: ReactNode;
}) {
  const { state, what, onRetry } = view;
  const shown =
    state.data === null && state.loading ? (
      <LoadingState label={`Loading ${what}…`} />
    ) : state.data === null && state.error ? (
      <ErrorState error={state.error} title={`Could not load ${what}`} onRetry={() => void onRetry()} />
    ) : (
      children
    );
  return freshness ? (
    <>
      <Freshness {...view} />
      {shown}
    </>
  ) : (
    shown
  );
}
