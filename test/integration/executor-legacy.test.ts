import { afterEach, describe, expect, it } from 'vitest';
import { IDS, agentCommand, automation, startHarness, type Harness } from './executor-harness';
import { scaled } from '../helpers/timeouts';

const HOUR = 3_600_000;
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const legacy = () =>
  automation({
    name: 'Legacy instagram',
    queue: 'legacy',
    targets: [{ social_account_id: IDS.accounts.instagram, platform: 'instagram' }],
  });

async function waitFor(cond: () => boolean, ms = 10_000): Promise<void> {
  const until = Date.now() + scaled(ms);
  while (!cond()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('executor legacy claim queue', () => {
  it('claims a due run, renews its lease at a third of its length over a long run, and completes it', async () => {
    h = await startHarness({ automations: [legacy()] });
    const ex = h.another({
      agent: agentCommand('--mode', 'slow', '--ms', '1500'),
      leaseSeconds: 60,
    }).executor;
    await ex.runOnce();
    const start = await h.advance(HOUR);
    await ex.tick();
    const row = () => ex.journal.list()[0];
    expect(row()?.queue).toBe('legacy');
    expect(row()?.claim_token).toBeTruthy();
    // Move both clocks 10 s at a time while the agent works in real time; the lease is 60 s.
    let now = start;
    while (ex.activeRuns().length > 0) {
      now = await h.advance(10_000);
      await waitFor(
        () =>
          ex.activeRuns().length === 0 || Date.parse(row()?.lease_expires_at ?? '') - now.getTime() > 40_000,
      );
    }
    await ex.idle();
    expect(now.getTime() - start.getTime()).toBeGreaterThan(60_000);
    expect(row()?.state).toBe('completed');
    const [run] = await h.runs(ex);
    expect(run?.state).toBe('completed');
    expect((run as unknown as { lease_expiries: number }).lease_expiries).toBe(0);
    const renewals = ex.journal.steps(row()?.id as string).filter((s) => s.step_id === 'lease');
    expect(renewals.length).toBeGreaterThanOrEqual(3);
    expect((await h.sb.control.state()).deliveries).toEqual({ draft: 1 });
  });

  it('a lost lease cancels the agent, records the reason, and the run is claimed again later', async () => {
    h = await startHarness({ automations: [legacy()] });
    const ex = h.another({
      agent: agentCommand('--mode', 'slow', '--ms', '1200'),
      leaseSeconds: 60,
    }).executor;
    await ex.runOnce();
    await h.advance(HOUR);
    await ex.tick();
    await waitFor(() => ex.journal.list()[0]?.step === 'agent');
    // Only the service's clock moves: the lease runs out before the executor renews it.
    await h.sb.control.advance(70_000);
    h.clock.advance(20_000);
    await ex.idle();
    const lost = ex.journal.list()[0];
    expect(lost?.state).toBe('failed');
    expect(lost?.reason_code).toBe('lease_lost');
    expect(lost?.reason).toContain('lease');
    expect((await h.sb.control.state()).runs).toEqual({ pending: 1 });
    h.clock.set(new Date(await h.sb.control.clock()));
    await ex.runOnce();
    expect((await h.sb.control.state()).runs).toEqual({ completed: 1 });
  });

  it('an agent may skip a claimed run, with its reason', async () => {
    h = await startHarness({ automations: [legacy()] });
    const ex = h.another({ agent: agentCommand('--mode', 'skip') }).executor;
    await ex.runOnce();
    await h.advance(HOUR);
    await ex.runOnce();
    const [run] = await h.runs(ex);
    expect(run?.state).toBe('skipped');
    expect(run?.result).toEqual({ skip_reason: 'nothing new to post today' });
    expect(ex.journal.list()[0]?.reason_code).toBe('skipped');
  });
});
