import type { ReactNode } from 'react';
import type { Loadable } from '../stores/loadable';
import { LoadGate } from './LoadGate';
import { EmptyState } from './states';

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
  return (
    <LoadGate state={accounts} what="accounts" onRetry={onRetry}>
      {usable === 0 ? (
        <EmptyState title="No accounts">Connect a social account in the dashboard first.</EmptyState>
      ) : (
        children
      )}
    </LoadGate>
  );
}
