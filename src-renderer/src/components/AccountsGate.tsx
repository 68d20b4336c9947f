import type { ReactNode } from 'react';
import type { Loadable } from '../stores/loadable';
import { EmptyState, ErrorState, LoadingState } from './states';

/** What a screen that works on accounts shows until it has some: loading, why not, or that there are none. */
export function AccountsGate({
  accounts,
  usable,
  onRetry,
  children,
}: {
  readonly accounts: Loadable<unknown>;
  /** How many of the loaded accounts this screen can use. */
  readonly usable: number;
  readonly onRetry: () => void;
  readonly children: ReactNode;
}) {
  if (accounts.data === null && accounts.loading) return <LoadingState label="Loading accounts…" />;
  if (accounts.data === null && accounts.error)
    return <ErrorState error={accounts.error} title="Could not load accounts" onRetry={onRetry} />;
  if (usable === 0)
    return <EmptyState title="No accounts">Connect a social account in the dashboard first.</EmptyState>;
  return children;
}
