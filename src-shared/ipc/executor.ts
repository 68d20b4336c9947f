import { z } from 'zod';
import { DateTime } from '../api/common';
import { event, invoke } from './define';
import { NoInput } from './common';

export const ExecutorStatus = z.object({
  /** `registering`: started, not yet known to the service, trying again until it answers. */
  state: z.enum(['stopped', 'registering', 'idle', 'running', 'paused']),
  executor_id: z.string().nullable(),
  name: z.string().nullable(),
  last_sync_at: DateTime.nullable(),
  next_sync_at: DateTime.nullable(),
  active_runs: z.number().int().nonnegative(),
  last_error: z.string().nullable(),
});
export type ExecutorStatus = z.infer<typeof ExecutorStatus>;

/** One automation's runs on this executor since it started. */
export const ExecutorAutomationFigures = z.object({
  automation_id: z.string(),
  name: z.string().nullable(),
  started: z.number().int().nonnegative(),
  completed: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  /** Occurrences not run here (paused, offline, past the grace window, or run by another executor). */
  missed: z.number().int().nonnegative(),
});
export type ExecutorAutomationFigures = z.infer<typeof ExecutorAutomationFigures>;

/** The figures `postdesk executor --metrics-port` serves, as Settings → Executor shows them. */
export const ExecutorMetrics = z.object({
  last_sync_at: DateTime.nullable(),
  /** The last sync is recent: what the daemon's health endpoint answers. */
  healthy: z.boolean(),
  running_agents: z.number().int().nonnegative(),
  start_delay: z.object({
    count: z.number().int().nonnegative(),
    mean_seconds: z.number().nonnegative().nullable(),
    /** Cumulative: runs that started at most `le_seconds` late. */
    buckets: z.array(z.object({ le_seconds: z.number().positive(), count: z.number().int().nonnegative() })),
  }),
  automations: z.array(ExecutorAutomationFigures),
});
export type ExecutorMetrics = z.infer<typeof ExecutorMetrics>;

export const executor = {
  status: invoke(NoInput, ExecutorStatus),
  pause: invoke(NoInput, ExecutorStatus),
  resume: invoke(NoInput, ExecutorStatus),
  syncNow: invoke(NoInput, ExecutorStatus),
  /** Null while no executor runs. */
  metrics: invoke(NoInput, ExecutorMetrics.nullable()),
  didChangeStatus: event(ExecutorStatus),
} as const;
