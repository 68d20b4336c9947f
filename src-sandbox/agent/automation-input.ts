import { z } from 'zod';
import { AUTOMATION_STATUSES, EXECUTION_MODES, LIMITS, Platform, Uuid } from '../../src-shared/api';
import { scheduleProblem } from './schedule';

/**
 * An automation as the fixture and `PUT /_sandbox/automations/{id}` give it (sandbox-control.md).
 * Defaults are the sandbox's: active, draft mode, local queue, UTC.
 */
export const AutomationShape = {
  name: z.string().min(1).max(200),
  status: z.enum(AUTOMATION_STATUSES).default('active'),
  execution_mode: z.enum(EXECUTION_MODES).default('draft'),
  queue: z.enum(['local', 'legacy']).default('local'),
  schedule: z.object({ cron: z.string().min(1), timezone: z.string().min(1).default('UTC') }),
  instructions: z.string().max(100_000).default(''),
  skill: z
    .object({ id: z.string().min(1), version: z.string().min(1) })
    .nullable()
    .optional(),
  targets: z
    .array(z.object({ social_account_id: Uuid, platform: Platform }))
    .max(LIMITS.addTargetsPerUpdate)
    .default([]),
  executor_id: z.string().min(1).nullable().optional(),
};

interface Checked {
  schedule: { cron: string; timezone: string };
  queue: 'local' | 'legacy';
  targets: { platform: string }[];
}

/** Rules that span fields: a usable schedule, and instagram-only targets on the legacy queue. */
export function checkAutomation(
  a: Checked,
  issue: (path: (string | number)[], message: string) => void,
): void {
  const problem = scheduleProblem(a.schedule.cron, a.schedule.timezone);
  if (problem) issue(['schedule'], problem);
  if (a.queue === 'legacy') {
    a.targets.forEach((t, i) => {
      if (t.platform !== 'instagram') {
        issue(['targets', i, 'platform'], 'the legacy queue publishes to instagram only');
      }
    });
  }
}

const refine = (a: Checked, ctx: z.RefinementCtx): void =>
  checkAutomation(a, (path, message) => ctx.addIssue({ code: 'custom', path, message }));

export const FixtureAutomation = z.object({ id: Uuid, ...AutomationShape }).superRefine(refine);
export type FixtureAutomation = z.infer<typeof FixtureAutomation>;

export const ControlAutomation = z
  .object({ owner_id: z.string().min(1).optional(), ...AutomationShape })
  .superRefine(refine);
export type ControlAutomation = z.infer<typeof ControlAutomation>;

export type AutomationInput = Omit<FixtureAutomation, 'id'>;
