import { AccountQueue, QueueSchedule, sortSlots } from '../../../src-shared/queue';
import type { Store } from '../store/store';
import { QUEUE_MIGRATIONS, QUEUE_NAMESPACE } from './migrations';

export interface QueueStore {
  /** Every account's schedule of this service, by account id. */
  all(scope: string): AccountQueue[];
  get(scope: string, accountId: string): AccountQueue | null;
  /** Replaces the account's schedule; an empty slot list removes it. */
  set(scope: string, accountId: string, schedule: Readonly<QueueSchedule>): AccountQueue | null;
}

interface Row {
  account_id: string;
  timezone: string;
  slots: string;
  updated_at: string;
}

/** A row read back through the shared schema: a store edited by hand cannot hand the planner a bad zone. */
const toQueue = (r: Row): AccountQueue | null => {
  const parsed = AccountQueue.safeParse({
    account_id: r.account_id,
    timezone: r.timezone,
    slots: JSON.parse(r.slots) as unknown,
    updated_at: r.updated_at,
  });
  return parsed.success ? parsed.data : null;
};

export function openQueueStore(store: Store, now: () => Date = () => new Date()): QueueStore {
  store.migrate(QUEUE_NAMESPACE, QUEUE_MIGRATIONS);
  const db = store.db;
  const all = db.prepare<[string], Row>(
    'SELECT account_id, timezone, slots, updated_at FROM queue_schedules WHERE scope = ? ORDER BY account_id',
  );
  const one = db.prepare<[string, string], Row>(
    'SELECT account_id, timezone, slots, updated_at FROM queue_schedules WHERE scope = ? AND account_id = ?',
  );
  const put = db.prepare<[string, string, string, string, string]>(
    `INSERT INTO queue_schedules (scope, account_id, timezone, slots, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (scope, account_id) DO UPDATE SET timezone = excluded.timezone, slots = excluded.slots,
       updated_at = excluded.updated_at`,
  );
  const del = db.prepare<[string, string]>('DELETE FROM queue_schedules WHERE scope = ? AND account_id = ?');
  return {
    all: (scope) => all.all(scope).flatMap((r) => toQueue(r) ?? []),
    get(scope, accountId) {
      const r = one.get(scope, accountId);
      return r ? toQueue(r) : null;
    },
    set(scope, accountId, schedule) {
      const s = QueueSchedule.parse(schedule);
      if (s.slots.length === 0) {
        del.run(scope, accountId);
        return null;
      }
      const at = now().toISOString();
      put.run(scope, accountId, s.timezone, JSON.stringify(sortSlots(s.slots)), at);
      return { account_id: accountId, timezone: s.timezone, slots: sortSlots(s.slots), updated_at: at };
    },
  };
}
