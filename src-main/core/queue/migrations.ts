import type { Migration } from '../store/store';

export const QUEUE_NAMESPACE = 'queue';

/**
 * One row per account per service (`scope`, as the outbox and the delivery index say it): the account's weekly
 * slots (a JSON list of `{weekday, time}`) and the zone they are read in. Nothing of it is on the service.
 */
export const QUEUE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    up: `CREATE TABLE queue_schedules (
           scope TEXT NOT NULL,
           account_id TEXT NOT NULL,
           timezone TEXT NOT NULL,
           slots TEXT NOT NULL,
           updated_at TEXT NOT NULL,
           PRIMARY KEY (scope, account_id)
         ) WITHOUT ROWID;`,
  },
];
