import { z } from 'zod';
import { DateTime } from '../api/common';
import { Automation } from '../api/automations';
import { AutomationIdInput, CreateAutomationInput, UpdateAutomationInput } from '../api/automation-editing';
import { invoke } from './define';
import { NoInput } from './common';
import { RunRecord } from './runs';

export const AutomationView = Automation.extend({
  /** The next time the schedule fires, computed locally; null when paused, removed or never. */
  next_occurrence: DateTime.nullable(),
});
export type AutomationView = z.infer<typeof AutomationView>;

/** One automation after a change: as the list shows it. */
const Changed = z.object({ automation: AutomationView });

export const automations = {
  list: invoke(
    NoInput,
    z.object({
      automations: z.array(AutomationView),
      /**
       * Whether this connection can create and edit automations here: the sandbox, through its MCP tools. The
       * service does it in its dashboard (its MCP server wants OAuth, which Postdesk does not hold).
       */
      can_edit: z.boolean(),
    }),
  ),
  /** Starts a run now through the local executor. */
  runNow: invoke(z.object({ id: z.string().min(1) }), z.object({ run: RunRecord })),
  create: invoke(CreateAutomationInput, Changed),
  /** The fields given replace the current ones; the revision goes up and executors pick it up on their next sync. */
  update: invoke(UpdateAutomationInput, Changed),
  pause: invoke(AutomationIdInput, Changed),
  resume: invoke(AutomationIdInput, Changed),
  /** For good: a removed automation stays listed as removed and can no longer be changed. */
  remove: invoke(AutomationIdInput, Changed),
} as const;
