import type { ReactNode } from 'react';
import type { Loadable } from '../stores/loadable';
import { ErrorState, LoadingState } from './states';

/**
 * What a screen or card shows of data it loads until it has some: "Loading X…" while the first load runs,
 * "Could not load X" with why and "Try again" when it failed, and otherwise its children (the data, or an
 * empty state). Data loaded once stays shown through a refresh, failed or not: `Freshness` says how old it is.
 */
export function LoadGate({
  state,
  what,
  onRetry,
  children,
}: {
  readonly state: Loadable<unknown>;
  /** What is loading, for both sentences: "articles", "the inbox", "this skill". */
  readonly what: string;
  /** Loads again; called without arguments. */
  readonly onRetry: () => unknown;
  readonly children: ReactNode;
}) {
  if (state.data === null && state.loading) return <LoadingState label={`Loading ${what}…`} />;
  if (state.data === null && state.error)
    return <ErrorState error={state.error} title={`Could not load ${what}`} onRetry={() => void onRetry()} />;
  return children;
}
