import { fileURLToPath } from 'node:url';
import { expect, test } from './support/fixtures';
import { goTo, screenshot } from './support/page';
import { sandboxApi } from './support/web-host';

// The repository's stand-in agent, slowed so each step is on screen long enough to be seen arriving.
const AGENT = fileURLToPath(new URL('../agents/test-agent.mjs', import.meta.url));

// The host is shared with the other flows: the agent command set below goes back to the default.
test.afterAll(async ({ host }) => {
  await host.cli(['config', 'unset', 'agentCommands']);
});

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
  await page.getByRole('button', { name: 'Yes, disconnect' }).click();
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
  // The agent's own steps appear inside the executor's `agent` step, in their order.
  const agentSteps = detail.getByRole('list', { name: 'Steps of agent' });
  const think = agentSteps.getByRole('listitem').filter({ hasText: 'think' });
  // While the agent thinks, the page shows that step running and the run live, with no reload…
  await expect(think).toContainText('running', { timeout: 20_000 });
  await expect(detail.getByRole('status', { name: 'Run running' })).toBeVisible();
  await expect(agentSteps.getByRole('listitem').filter({ hasText: 'render' })).toHaveCount(0);
  await screenshot(page, 'automation-run-live');
  // …then the step completes, the next ones arrive, and the run ends.
  await expect(think).toContainText('completed', { timeout: 20_000 });
  await expect(agentSteps.getByRole('listitem').filter({ hasText: 'render' })).toBeVisible();
  await expect(agentSteps.locator(':scope > li .timeline__name')).toHaveText(['think', 'render']);
  // …inside the executor's own steps, which stay in theirs.
  await expect(steps.locator(':scope > li > .timeline__body > .timeline__top .timeline__name')).toContainText(
    ['prepare', 'agent'],
  );
  await expect(detail.getByRole('status', { name: 'Run completed' })).toBeVisible({ timeout: 30_000 });
  await expect(detail.getByLabel('Run logs')).toContainText('::step think started');
  await expect(page.getByRole('list', { name: 'Run history' }).getByRole('listitem').first()).toContainText(
    name,
  );
  await screenshot(page, 'automation-run');
});

test('on the sandbox, an automation is created, edited, paused and removed from the Automations screen', async ({
  app: page,
  host,
}) => {
  await goTo(page, 'Automations');
  await page.getByRole('button', { name: 'New automation' }).click();
  const dialog = page.getByRole('dialog', { name: 'New automation' });
  await dialog.getByLabel('Name').fill('Weekday tips from e2e');
  await dialog.getByLabel('Schedule').fill('0 9 * *');
  await dialog.getByLabel('Time zone').fill('Europe/Berlin');
  await dialog.getByLabel('Instructions').fill('Make a short tip video.');
  await dialog.getByRole('checkbox', { name: /Demo LinkedIn/ }).check();
  await dialog.getByRole('checkbox', { name: /Demo YouTube/ }).check();
  await dialog.getByRole('button', { name: 'Create automation' }).click();
  // The sandbox refuses a four-part schedule; the form says so next to the field, in words.
  await expect(dialog.getByText('A schedule has five parts', { exact: false })).toBeVisible();
  await screenshot(page, 'automation-editor');
  await dialog.getByLabel('Schedule').fill('0 9 * * 1-5');
  await dialog.getByRole('button', { name: 'Create automation' }).click();
  await expect(dialog).toBeHidden();

  const list = page.getByRole('list', { name: 'Automations list' });
  const row = list.getByRole('listitem').filter({ hasText: 'Weekday tips from e2e' });
  await expect(row).toContainText('0 9 * * 1-5');
  await expect(row).toContainText('Europe/Berlin');
  await screenshot(page, 'automation-created');

  // What the sandbox holds is what the form said.
  type Listed = {
    automations: { id: string; name: string; revision: number; status: string; targets: unknown[] }[];
  };
  const held = async () =>
    (await sandboxApi<Listed>(host, '/api/automations')).automations.find((a) =>
      a.name.startsWith('Weekday tips'),
    );
  expect(await held()).toMatchObject({ revision: 1, status: 'active', targets: expect.any(Array) });
  expect((await held())?.targets).toHaveLength(2);

  await row.getByRole('button', { name: 'Edit Weekday tips from e2e' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Weekday tips from e2e' });
  await edit.getByRole('radio', { name: 'Auto publish' }).click();
  await edit.getByLabel('Name').fill('Weekday tips, auto');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit).toBeHidden();
  const renamed = list.getByRole('listitem').filter({ hasText: 'Weekday tips, auto' });
  await expect(renamed).toContainText('auto publish');
  expect(await held()).toMatchObject({ name: 'Weekday tips, auto', revision: 2 });

  await renamed.getByRole('button', { name: 'Edit Weekday tips, auto' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Pause' }).click();
  await expect(renamed).toContainText('paused');
  expect(await held()).toMatchObject({ status: 'paused', revision: 3 });

  await renamed.getByRole('button', { name: 'Edit Weekday tips, auto' }).click();
  const last = page.getByRole('dialog');
  await last.getByRole('button', { name: 'Remove…' }).click();
  await last.getByRole('button', { name: 'Remove for good' }).click();
  await expect(renamed).toContainText('removed');
  await expect(renamed.getByRole('button', { name: 'Edit Weekday tips, auto' })).toBeDisabled();
  expect(await held()).toMatchObject({ status: 'removed', revision: 4 });
});
