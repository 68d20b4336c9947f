import { z } from 'zod';
import { DateTime } from '../api/common';
import { NoInput } from './common';
import { invoke } from './define';

/** How many occurrences Settings shows. */
export const UPCOMING_COUNT = 10;

export const UpcomingOccurrence = z.object({
  automation_id: z.string(),
  automation_name: z.string(),
  at: DateTime,
  /**
   * Whether an executor of this computer ran at the same time a week before: `not_running` marks an occurrence
   * likely to be missed again; `unknown` while the history does not reach back that far.
   */
  last_week: z.enum(['running', 'not_running', 'unknown']),
});
export type UpcomingOccurrence = z.infer<typeof UpcomingOccurrence>;

export const UpcomingList = z.object({
  occurrences: z.array(UpcomingOccurrence),
  /** When the start/stop history begins, or null: none recorded yet. */
  history_since: DateTime.nullable(),
});
export type UpcomingList = z.infer<typeof UpcomingList>;

/** When this computer's automations fall due next, against its own running history. */
export const schedule = {
  upcoming: invoke(NoInput, UpcomingList),
} as const;
