import { z } from 'zod';
import { Uuid } from '../../src-shared/api';
import { AutomationFields } from '../../src-shared/api/automation-editing';
import { scheduleProblem } from './schedule';

/**
 * An automation as the fixture, `PUT /_sandbox/automations/{id}` and the MCP tools give it
 * (sandbox-control.md): the contract's editable fields with the sandbox's defaults (active, draft mode,
 * local queue, UTC).
 */
export const AutomationShape = {
  name: AutomationFields.name,
  status: AutomationFields.status.default('active'),
  execution_mode: AutomationFields.execution_mode.default('draft'),
  queue: AutomationFields.queue.default('local'),
  schedule: AutomationFields.schedule.extend({
    timezone: AutomationFields.schedule.shape.timezone.default('UTC'),
  }),
  instructions: AutomationFields.instructions.default(''),
  skill: AutomationFields.skill.optional(),
  targets: AutomationFields.targets.default([]),
  executor_id: AutomationFields.executor_id.optional(),
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

/** The checks of the control route without its `owner_id`: what the MCP tools validate a whole automation with. */
export const OwnedAutomation = z.object(AutomationShape).superRefine(refine);
