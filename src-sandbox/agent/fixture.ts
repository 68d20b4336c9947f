import { z } from 'zod';
import type { SandboxContext } from '../context';
import { stmt } from '../db';
import { SandboxError, zodToSandboxError } from '../errors';
import { FixtureAutomation } from './automation-input';
import { upsertAutomation } from './automations';
import { FixtureExecutor, insertExecutor } from './executors';

const AgentFixture = z.object({
  executors: z.array(FixtureExecutor).default([]),
  automations: z.array(FixtureAutomation).default([]),
});

/**
 * Loads one owner's executors and automations (sandbox-control.md, Fixture). Runs inside the
 * fixture's transaction, after the owner's accounts, so targets can be checked against them.
 */
export function loadAgentFixture(
  ctx: SandboxContext,
  ownerId: string,
  owner: { executors?: unknown[]; automations?: unknown[] },
): void {
  const parsed = AgentFixture.safeParse(owner);
  if (!parsed.success) throw zodToSandboxError(parsed.error, { prefix: `fixture.owners[${ownerId}].` });
  for (const executor of parsed.data.executors) insertExecutor(ctx, ownerId, executor);
  for (const { id, ...automation } of parsed.data.automations) {
    if (stmt(ctx.db, 'SELECT 1 FROM agent_automations WHERE id = ?').get(id)) {
      throw new SandboxError(
        400,
        'VALIDATION_FAILED',
        `fixture.owners[${ownerId}].automations: id ${id} is used twice`,
      );
    }
    upsertAutomation(ctx, id, ownerId, automation);
  }
}
