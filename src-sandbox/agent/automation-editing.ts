import type { Automation } from '../../src-shared/api';
import type { CreateAutomationInput, UpdateAutomationInput } from '../../src-shared/api/automation-editing';
import type { SandboxContext } from '../context';
import { SandboxError } from '../errors';
import { parse } from '../validate';
import { OwnedAutomation } from './automation-input';
import { upsertAutomation } from './automations';
import type { AutomationRow } from './records';
import { automationJson } from './records';
import { requireAutomation } from './store';

/**
 * Creating and editing automations as their owner does it over MCP (the service: "in the dashboard or over
 * MCP"). Every change is validated as `PUT /_sandbox/automations/{id}` validates it and increments
 * `revision`, so an executor sees it on its next sync as `revision > acked_revision`.
 */

/** The automation as an editable input again, so a partial update can be validated as a whole. */
function inputOf(row: AutomationRow): Record<string, unknown> {
  const { name, status, execution_mode, queue, schedule, instructions, skill, targets, executor_id } =
    automationJson(row);
  return { name, status, execution_mode, queue, schedule, instructions, skill, targets, executor_id };
}

function requireEditable(ctx: SandboxContext, ownerId: string, id: string): AutomationRow {
  const row = requireAutomation(ctx, ownerId, id);
  if (row.status === 'removed') {
    throw new SandboxError(
      409,
      'AUTOMATION_REMOVED',
      `automation ${id} has been removed; a removed automation cannot be edited`,
    );
  }
  return row;
}

/** A new automation of the caller, active, with a fresh id and revision 1. */
export function createAutomation(
  ctx: SandboxContext,
  ownerId: string,
  body: Readonly<CreateAutomationInput>,
): Automation {
  const input = parse(OwnedAutomation, { ...body, status: 'active' });
  return ctx.db.transaction(() => upsertAutomation(ctx, ctx.uuid(), ownerId, input))();
}

/** The given fields replace the current ones; 409 AUTOMATION_REMOVED once removed. */
export function updateAutomation(
  ctx: SandboxContext,
  ownerId: string,
  body: Readonly<UpdateAutomationInput>,
): Automation {
  return ctx.db.transaction(() => {
    const { id, ...changes } = body;
    const row = requireEditable(ctx, ownerId, id);
    const input = parse(OwnedAutomation, { ...inputOf(row), ...changes });
    return upsertAutomation(ctx, id, ownerId, input);
  })();
}

/**
 * Pause, resume or remove. Asking for the status it already has changes nothing (no new revision), so an
 * agent may repeat a call whose answer it lost. A removed automation stays removed: sync keeps telling
 * executors, and pausing or resuming it answers 409 AUTOMATION_REMOVED.
 */
export function setAutomationStatus(
  ctx: SandboxContext,
  ownerId: string,
  id: string,
  status: Automation['status'],
): Automation {
  return ctx.db.transaction(() => {
    const current = requireAutomation(ctx, ownerId, id);
    if (current.status === status) return automationJson(current);
    const row = requireEditable(ctx, ownerId, id);
    const input = parse(OwnedAutomation, { ...inputOf(row), status });
    return upsertAutomation(ctx, id, ownerId, input);
  })();
}
