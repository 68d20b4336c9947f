import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import {
  AUTOMATION_TOOLS,
  AutomationIdInput,
  CreateAutomationInput,
  UpdateAutomationInput,
} from '../../src-shared/api/automation-editing';
import type { Automation } from '../../src-shared/api';
import { createAutomation, setAutomationStatus, updateAutomation } from '../agent/automation-editing';
import type { SandboxContext } from '../context';
import { SandboxError } from '../errors';

/**
 * Tools with no REST route behind them: the contract has automations created and edited "in the dashboard
 * or over MCP", so these call the sandbox's automation service directly, as the caller's owner.
 */
export interface OwnerToolSpec<S extends z.ZodObject = z.ZodObject> {
  readonly name: string;
  readonly description: string;
  readonly input: S;
  run(ctx: SandboxContext, ownerId: string, args: z.infer<S>): Automation;
}

const tool = <S extends z.ZodObject>(spec: OwnerToolSpec<S>): OwnerToolSpec =>
  spec as unknown as OwnerToolSpec;

const CHECKS =
  'Checked as the service checks it: a 5-field cron and an IANA time zone, targets among your accounts on their platform (at most 12), instagram only on the legacy queue.';

export const AUTOMATION_TOOL_SPECS: readonly OwnerToolSpec[] = [
  tool({
    name: AUTOMATION_TOOLS.create,
    description: `Create an automation (a scheduled agent run), active at revision 1: name, schedule {cron, timezone}, execution_mode "draft" (default) or "auto", instructions, targets, optional skill and executor_id. ${CHECKS}`,
    input: CreateAutomationInput,
    run: (ctx, ownerId, args) => createAutomation(ctx, ownerId, args),
  }),
  tool({
    name: AUTOMATION_TOOLS.update,
    description: `Edit an automation by id: the fields given replace the current ones and the revision goes up, so executors pick the change up on their next sync. ${CHECKS}`,
    input: UpdateAutomationInput,
    run: (ctx, ownerId, args) => updateAutomation(ctx, ownerId, args),
  }),
  tool({
    name: AUTOMATION_TOOLS.pause,
    description:
      'Pause an automation: executors start no run of it until it is resumed. Pausing a paused one changes nothing.',
    input: AutomationIdInput,
    run: (ctx, ownerId, args) => setAutomationStatus(ctx, ownerId, args.id, 'paused'),
  }),
  tool({
    name: AUTOMATION_TOOLS.resume,
    description: 'Resume a paused automation. Resuming an active one changes nothing.',
    input: AutomationIdInput,
    run: (ctx, ownerId, args) => setAutomationStatus(ctx, ownerId, args.id, 'active'),
  }),
  tool({
    name: AUTOMATION_TOOLS.remove,
    description:
      'Remove an automation for good: it stays listed as removed so executors learn of it, and can no longer be edited.',
    input: AutomationIdInput,
    run: (ctx, ownerId, args) => setAutomationStatus(ctx, ownerId, args.id, 'removed'),
  }),
];

/** Runs a tool; the service's errors come back as the REST-shaped `{error, code}` body with `isError`. */
export function runOwnerTool(
  spec: OwnerToolSpec,
  ctx: SandboxContext,
  ownerId: string,
  args: unknown,
): CallToolResult {
  try {
    const automation = spec.run(ctx, ownerId, args as never);
    return { content: [{ type: 'text', text: JSON.stringify({ automation }) }], isError: false };
  } catch (err) {
    if (!(err instanceof SandboxError)) throw err;
    return { content: [{ type: 'text', text: JSON.stringify(err.body()) }], isError: true };
  }
}
