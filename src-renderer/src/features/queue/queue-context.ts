import { createContext, useContext } from 'react';
import type { Account } from '../../../../src-shared/api/accounts';
import type { AccountUpcoming } from '../../../../src-shared/ipc/queue';
import type { AccountQueue } from '../../../../src-shared/queue';
import type { CellPost } from './week-grid';

/** What every part of the grid reads: the accounts, their schedules and upcoming slots, and the post in a drag. */
export interface QueueContextValue {
  readonly accounts: readonly Account[];
  readonly queues: readonly AccountQueue[];
  readonly upcoming: readonly AccountUpcoming[];
  readonly dragged: CellPost | null;
  readonly setDragged: (post: CellPost | null) => void;
  /** Today's date (`YYYY-MM-DD`) in the person's zone. */
  readonly today: string;
}

export const QueueContext = createContext<QueueContextValue | null>(null);

export function useQueueContext(): QueueContextValue {
  const ctx = useContext(QueueContext);
  if (!ctx) throw new Error('the queue grid is used outside its week');
  return ctx;
}
