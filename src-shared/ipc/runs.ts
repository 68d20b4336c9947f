import { z } from 'zod';
import { DateTime } from '../api/common';
import { RUN_EVENT_STATUSES, RUN_STATES } from '../api/automations';
import { event, invoke } from './define';

/** `missed`: a run that fell due but did not happen (executor off, paused, missed-run policy). */
export const RUN_RECORD_STATES = [...RUN_STATES, 'missed'] as const;

/**
 * A run as the UI sees it. A plain `z.object`, so parsing strips what must not reach the renderer
 * (`claim_token`, run tokens) even when a source object carries it.
 */
export const RunRecord = z.object({
  id: z.string(),
  automation_id: z.string(),
  automation_name: z.string().nullable(),
  revision: z.number().int().nullable(),
  state: z.enum(RUN_RECORD_STATES),
  scheduled_for: DateTime.nullable(),
  started_at: DateTime.nullable(),
  finished_at: DateTime.nullable(),
  /** Why the run failed, was skipped or did not happen; null when it succeeded or is still going. */
  reason: z.string().nullable(),
});
export type RunRecord = z.infer<typeof RunRecord>;

export const RunStep = z.object({
  step_id: z.string(),
  status: z.enum(RUN_EVENT_STATUSES),
  message: z.string().nullable(),
  at: DateTime,
  /** Who reported it: the executor's own steps, or the agent's (`::step` lines), which happen inside `agent`. */
  source: z.enum(['executor', 'agent']).optional(),
});
export type RunStep = z.infer<typeof RunStep>;

export const RunLogLine = z.object({
  at: DateTime,
  stream: z.enum(['stdout', 'stderr', 'system']),
  text: z.string(),
});
export type RunLogLine = z.infer<typeof RunLogLine>;

export const RunDetail = z.object({ run: RunRecord, steps: z.array(RunStep), logs: z.array(RunLogLine) });
export type RunDetail = z.infer<typeof RunDetail>;

export const RunStepEvent = z.object({ run_id: z.string(), automation_id: z.string(), step: RunStep });
export type RunStepEvent = z.infer<typeof RunStepEvent>;

export const RunLogEvent = z.object({ run_id: z.string(), line: RunLogLine });
export type RunLogEvent = z.infer<typeof RunLogEvent>;

export const runs = {
  /** Newest first. */
  list: invoke(
    z.object({
      automation_id: z.string().optional(),
      limit: z.number().int().min(1).max(500).optional(),
    }),
    z.object({ runs: z.array(RunRecord) }),
  ),
  get: invoke(z.object({ id: z.string().min(1) }), RunDetail),
  /** A step of a live run (the executor's onDidStepRun). */
  didStepRun: event(RunStepEvent),
  didLog: event(RunLogEvent),
  /** A run started, changed state or finished. */
  didChange: event(z.object({ run: RunRecord })),
} as const;
