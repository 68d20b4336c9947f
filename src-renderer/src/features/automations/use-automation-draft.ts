import { useState } from 'react';
import type { Account } from '../../../../src-shared/api/accounts';
import type { AutomationView } from '../../../../src-shared/ipc';
import { localZone } from '../../app/format';
import type { Mode } from './ModeField';
import { cronToPick, pickToCron, type SchedulePick } from './schedule/cron-pick';
import { toggled } from '../../app/toggled';

/** The editor's fields, from the automation (or a new one's defaults), and the request they make. */
export function useAutomationDraft(automation: AutomationView | null) {
  const [name, setName] = useState(automation?.name ?? '');
  const [mode, setMode] = useState<Mode>(automation?.execution_mode ?? 'draft');
  const [pick, setPick] = useState<SchedulePick>(() =>
    cronToPick(automation?.schedule.cron ?? '0 9 * * 1-5'),
  );
  const [timezone, setTimezone] = useState(automation?.schedule.timezone ?? localZone());
  const [instructions, setInstructions] = useState(automation?.instructions ?? '');
  const [targets, setTargets] = useState<ReadonlySet<string>>(
    new Set(automation?.targets.map((t) => t.social_account_id) ?? []),
  );
  const toggle = (id: string) => setTargets((prev) => toggled(prev, id));
  /** What create or update sends; a target no longer listed keeps the platform the automation had for it. */
  const fields = (byId: ReadonlyMap<string, Account>) => ({
    name: name.trim(),
    execution_mode: mode,
    schedule: { cron: pickToCron(pick), timezone: timezone.trim() },
    instructions,
    targets: [...targets].flatMap((id) => {
      const a = byId.get(id) ?? automation?.targets.find((t) => t.social_account_id === id);
      return a ? [{ social_account_id: id, platform: a.platform }] : [];
    }),
  });
  return {
    name,
    setName,
    mode,
    setMode,
    pick,
    setPick,
    timezone,
    setTimezone,
    instructions,
    setInstructions,
    targets,
    toggle,
    fields,
  };
}
