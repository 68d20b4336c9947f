import { z } from 'zod';
import { DateTime } from '../api/common';
import { event, invoke } from './define';
import { NoInput } from './common';

export const ExecutorStatus = z.object({
  state: z.enum(['stopped', 'idle', 'running', 'paused']),
  executor_id: z.string().nullable(),
  name: z.string().nullable(),
  last_sync_at: DateTime.nullable(),
  next_sync_at: DateTime.nullable(),
  active_runs: z.number().int().nonnegative(),
  last_error: z.string().nullable(),
});
export type ExecutorStatus = z.infer<typeof ExecutorStatus>;

export const executor = {
  status: invoke(NoInput, ExecutorStatus),
  pause: invoke(NoInput, ExecutorStatus),
  resume: invoke(NoInput, ExecutorStatus),
  syncNow: invoke(NoInput, ExecutorStatus),
  didChangeStatus: event(ExecutorStatus),
} as const;
