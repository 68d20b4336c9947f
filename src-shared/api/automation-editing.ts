import { z } from 'zod';
import { LIMITS } from './limits';
import { Platform, Uuid } from './common';
import { AUTOMATION_STATUSES, Automation, EXECUTION_MODES } from './automations';

/**
 * Creating and editing automations. The service does it "in the dashboard or over MCP"; the sandbox offers
 * the MCP tools named here (docs/sandbox-agent.md), and Postdesk's Automations screen calls them.
 */
export const AUTOMATION_TOOLS = {
  create: 'create_automation',
  update: 'update_automation',
  pause: 'pause_automation',
  resume: 'resume_automation',
  remove: 'remove_automation',
} as const;

/** Each editable field of an automation with its limits; defaults are the service's to apply. */
export const AutomationFields = {
  name: z.string().min(1).max(200),
  status: z.enum(AUTOMATION_STATUSES),
  execution_mode: z.enum(EXECUTION_MODES),
  queue: z.enum(['local', 'legacy']),
  schedule: z.object({
    cron: z.string().min(1).max(200).describe('5-field cron, e.g. "0 9 * * 1-5"'),
    timezone: z.string().min(1).max(100).describe('IANA time zone, e.g. "Europe/Berlin"'),
  }),
  instructions: z.string().max(100_000),
  skill: z.object({ id: z.string().min(1), version: z.string().min(1) }).nullable(),
  targets: z.array(z.object({ social_account_id: Uuid, platform: Platform })).max(LIMITS.addTargetsPerUpdate),
  executor_id: z.string().min(1).nullable(),
};

/** `create_automation`: a new automation of the caller (the owner is the API key's); it starts active. */
export const CreateAutomationInput = z.object({
  name: AutomationFields.name,
  schedule: AutomationFields.schedule,
  execution_mode: AutomationFields.execution_mode.optional(),
  queue: AutomationFields.queue.optional(),
  instructions: AutomationFields.instructions.optional(),
  skill: AutomationFields.skill.optional(),
  targets: AutomationFields.targets.optional(),
  executor_id: AutomationFields.executor_id.optional(),
});
export type CreateAutomationInput = z.infer<typeof CreateAutomationInput>;

/** `update_automation`: the fields given replace the current ones; the others stay. */
export const UpdateAutomationInput = z.object({
  id: Uuid,
  name: AutomationFields.name.optional(),
  schedule: AutomationFields.schedule.optional(),
  execution_mode: AutomationFields.execution_mode.optional(),
  queue: AutomationFields.queue.optional(),
  instructions: AutomationFields.instructions.optional(),
  skill: AutomationFields.skill.optional(),
  targets: AutomationFields.targets.optional(),
  executor_id: AutomationFields.executor_id.optional(),
});
export type UpdateAutomationInput = z.infer<typeof UpdateAutomationInput>;

/** `pause_automation`, `resume_automation`, `remove_automation`. */
export const AutomationIdInput = z.object({ id: Uuid });
export type AutomationIdInput = z.infer<typeof AutomationIdInput>;

/** What every automation tool answers (as JSON text), or `{error, code}` with `isError`. */
export const AutomationToolResult = z.looseObject({ automation: Automation });
export type AutomationToolResult = z.infer<typeof AutomationToolResult>;
