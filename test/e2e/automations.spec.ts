import { fileURLToPath } from 'node:url';
import { expect, test } from './support/fixtures';
import { goTo, screenshot } from './support/page';

// The repository's stand-in agent, slowed so each step is on screen long enough to be seen arriving.
const AGENT = fileURLToPath(new URL('../agents/test-agent.mjs', import.meta.url));

test('an automation run shows its steps arrive live, then its outcome', async ({ app: page, host }) => {
  const args = [AGENT, '--mode', 'slow', '--ms', '2500'];
  // The page may not choose what Postdesk runs: without a terminal to confirm it in, the change is refused.
  await goTo(page, 'Settings');
  await page.getByRole('button', { name: 'Add agent command' }).click();
  const agent = page.getByRole('group', { name: 'Agent command 1' });
  await agent.getByLabel('Agent type').fill('e2e-agent');
  await agent.getByLabel('Program').fill(process.execPath);
  await agent.getByLabel('Arguments').fill(args.join('\n'));
  await page.getByRole('button', { name: 'Save settings' }).click();
  const refused = page.getByRole('alert').filter({ hasText: 'Not saved' });
  await expect(refused).toContainText('terminal that started it');
  await screenshot(page, 'settings-agent-refused');
  await page.getByRole('button', { name: 'Discard changes' }).click();

  // The user sets it where they started Postdesk; the executor picks agents up when it (re)connects.
  await host.cli([
    'config',
    'set',
    'agentCommands',
    JSON.stringify({ 'e2e-agent': { command: process.execPath, args } }),
  ]);
  await page.getByRole('button', { name: 'Disconnect' }).click();
  await page.getByRole('button', { name: 'Try offline' }).click();

  await goTo(page, 'Automations');
  const list = page.getByRole('list', { name: 'Automations list' });
  // A draft-mode automation: its run ends with a draft, so it can complete without a video.
  const first = list.getByRole('listitem').filter({ hasText: 'drafts' }).first();
  await expect(first).toContainText('Next');
  const name = (await first.locator('.automation__name').textContent()) ?? '';
  await expect(page.getByRole('heading', { name: 'Executor' })).toBeVisible();
  await list.getByRole('button', { name: `Run ${name} now` }).click();

  const detail = page.getByRole('region', { name: 'Run detail' });
  await expect(detail.getByRole('heading', { name })).toBeVisible();
  const steps = detail.getByRole('list', { name: 'Steps' });
  const think = steps.getByRole('listitem').filter({ hasText: 'think' });
  // While the agent thinks, the page shows that step running and the run live, with no reload…
  await expect(think).toContainText('running', { timeout: 20_000 });
  await expect(detail.getByRole('status', { name: 'Run running' })).toBeVisible();
  await expect(steps.getByRole('listitem').filter({ hasText: 'render' })).toHaveCount(0);
  await screenshot(page, 'automation-run-live');
  // …then the step completes, the next ones arrive, and the run ends.
  await expect(think).toContainText('completed', { timeout: 20_000 });
  await expect(steps.getByRole('listitem').filter({ hasText: 'render' })).toBeVisible();
  await expect(detail.getByRole('status', { name: 'Run completed' })).toBeVisible({ timeout: 30_000 });
  await expect(detail.getByLabel('Run logs')).toContainText('::step think started');
  await expect(page.getByRole('list', { name: 'Run history' }).getByRole('listitem').first()).toContainText(
    name,
  );
  await screenshot(page, 'automation-run');
});
