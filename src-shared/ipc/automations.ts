import { z } from 'zod';
import { DateTime } from '../api/common';
import { Automation } from '../api/automations';
import { invoke } from './define';
import { NoInput } from './common';
import { RunRecord } from './runs';

export const AutomationView = Automation.extend({
  /** The next time the schedule fires, computed locally; null when paused, removed or never. */
  next_occurrence: DateTime.nullable(),
});
export type AutomationView = z.infer<typeof AutomationView>;

export const automations = {
  list: invoke(NoInput, z.object({ automations: z.array(AutomationView) })),
  /** Starts a run now through the local executor. */
  runNow: invoke(z.object({ id: z.string().min(1) }), z.object({ run: RunRecord })),
} as const;
