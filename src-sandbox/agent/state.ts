import type { SandboxContext } from '../context';
import { stmt } from '../db';

/** The agent part of `GET /_sandbox/state`, all owners together. */
export function agentStateCounts(ctx: SandboxContext): { executors: number; runs: Record<string, number> } {
  const executors = (stmt(ctx.db, 'SELECT COUNT(*) AS n FROM agent_executors').get() as { n: number }).n;
  const rows = stmt(ctx.db, 'SELECT state, COUNT(*) AS n FROM agent_runs GROUP BY state').all() as {
    state: string;
    n: number;
  }[];
  return { executors, runs: Object.fromEntries(rows.map((r) => [r.state, r.n])) };
}
