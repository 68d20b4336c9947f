import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { expect, test } from './support/fixtures';
import { goTo, screenshot } from './support/page';
import { pickTime } from './support/time-picker';
import { sandboxApi } from './support/web-host';

const axeSerious = async (page: Page) =>
  (await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()).violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ rule: v.id, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));

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
  await list.getByRole('button', { name: `Run now: ${name}` }).click();

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
  await dialog.getByRole('combobox', { name: 'Time zone' }).fill('Europe/Berlin');
  await dialog.getByLabel('Instructions').fill('Make a short tip video.');
  await dialog.getByRole('checkbox', { name: /Demo LinkedIn/ }).check();
  await dialog.getByRole('checkbox', { name: /Demo YouTube/ }).check();
  // A cron is written only in the Advanced part; a four-part one is refused before it is sent, by its field.
  await dialog.getByText('Advanced (cron)').click();
  await dialog.getByLabel('Schedule (cron)').fill('0 9 * *');
  const count = async () =>
    (await sandboxApi<{ automations: unknown[] }>(host, '/api/automations')).automations.length;
  const before = await count();
  await dialog.getByRole('button', { name: 'Create automation' }).click();
  await expect(
    dialog.getByText('Schedule (cron): a schedule has five parts', { exact: false }),
  ).toBeVisible();
  await expect(dialog.getByLabel('Schedule (cron)')).toHaveAttribute('aria-invalid', 'true');
  // Said before sending: nothing reached the sandbox.
  expect(await count()).toBe(before);
  await screenshot(page, 'automation-editor');
  // The picker: every weekday at 9:00.
  await dialog.getByLabel('Repeats').selectOption({ label: 'Every weekday' });
  await pickTime(dialog, 'At', '09:00');
  await expect(dialog.getByLabel('Schedule (cron)')).toHaveValue('0 9 * * 1-5');
  await dialog.getByRole('button', { name: 'Create automation' }).click();
  await expect(dialog).toBeHidden();

  const list = page.getByRole('list', { name: 'Automations list' });
  const row = list.getByRole('listitem').filter({ hasText: 'Weekday tips from e2e' });
  // In words on the list, on the language's clock (12-hour in English); the cron only inside its details.
  await expect(row).toContainText('Every weekday at 9:00 AM, Europe/Berlin time');
  await expect(row.getByText('0 9 * * 1-5')).toBeHidden();
  await row.getByText('Cron', { exact: true }).click();
  await expect(row.getByText('0 9 * * 1-5')).toBeVisible();
  await screenshot(page, 'automation-created');

  // What the sandbox holds is what the form said.
  type Listed = {
    automations: {
      id: string;
      name: string;
      revision: number;
      status: string;
      targets: unknown[];
      schedule: { cron: string; timezone: string };
    }[];
  };
  const held = async () =>
    (await sandboxApi<Listed>(host, '/api/automations')).automations.find((a) =>
      a.name.startsWith('Weekday tips'),
    );
  expect(await held()).toMatchObject({
    revision: 1,
    status: 'active',
    targets: expect.any(Array),
    schedule: { cron: '0 9 * * 1-5', timezone: 'Europe/Berlin' },
  });
  expect((await held())?.targets).toHaveLength(2);

  await row.getByRole('button', { name: 'Edit Weekday tips from e2e' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Weekday tips from e2e' });
  await edit.getByRole('radio', { name: 'Auto publish' }).click();
  await edit.getByLabel('Name').fill('Weekday tips, auto');
  // The saved schedule opens in the picker; chosen days at 6:30 PM.
  await expect(edit.getByLabel('Repeats')).toHaveValue('weekdays');
  await edit.getByLabel('Repeats').selectOption({ label: 'On chosen days' });
  const on = edit.getByRole('group', { name: 'On' });
  for (const d of ['Monday', 'Wednesday', 'Friday']) await on.getByRole('checkbox', { name: d }).check();
  for (const d of ['Tuesday', 'Thursday', 'Saturday', 'Sunday'])
    await on.getByRole('checkbox', { name: d }).uncheck();
  await pickTime(edit, 'At', '18:30');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit).toBeHidden();
  const renamed = list.getByRole('listitem').filter({ hasText: 'Weekday tips, auto' });
  await expect(renamed).toContainText('auto publish');
  await expect(renamed).toContainText('Every Monday, Wednesday and Friday at 6:30 PM, Europe/Berlin time');
  expect(await held()).toMatchObject({
    name: 'Weekday tips, auto',
    revision: 2,
    schedule: { cron: '30 18 * * 1,3,5' },
  });

  // Every few hours: every 6, on the hour; a day with none picked is refused by its field first.
  await renamed.getByRole('button', { name: 'Edit Weekday tips, auto' }).click();
  const hours = page.getByRole('dialog', { name: 'Edit Weekday tips, auto' });
  for (const d of ['Monday', 'Wednesday', 'Friday'])
    await hours.getByRole('group', { name: 'On' }).getByRole('checkbox', { name: d }).uncheck();
  await hours.getByRole('button', { name: 'Save changes' }).click();
  await expect(hours.getByText('On: pick at least one day.')).toBeVisible();
  await hours.getByLabel('Repeats').selectOption({ label: 'Every few hours' });
  await hours.getByLabel('Every', { exact: true }).selectOption('6');
  await hours.getByRole('button', { name: 'Save changes' }).click();
  await expect(hours).toBeHidden();
  await expect(renamed).toContainText('Every 6 hours, on the hour');
  expect(await held()).toMatchObject({ revision: 3, schedule: { cron: '0 */6 * * *' } });

  await renamed.getByRole('button', { name: 'Edit Weekday tips, auto' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Pause' }).click();
  await expect(renamed).toContainText('paused');
  expect(await held()).toMatchObject({ status: 'paused', revision: 4 });

  await renamed.getByRole('button', { name: 'Edit Weekday tips, auto' }).click();
  const last = page.getByRole('dialog');
  await last.getByRole('button', { name: 'Remove…' }).click();
  await last.getByRole('button', { name: 'Remove for good' }).click();
  await expect(renamed).toContainText('removed');
  await expect(renamed.getByRole('button', { name: 'Edit Weekday tips, auto' })).toBeDisabled();
  expect(await held()).toMatchObject({ status: 'removed', revision: 5 });
});

test('Automations, its list in words and its schedule picker, has no serious or critical axe violation in light or dark', async ({
  app: page,
}) => {
  await goTo(page, 'Automations');
  await expect(page.getByRole('list', { name: 'Automations list' })).toBeVisible();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    // The colours a person reads once the scheme has settled: checked until then, so a frame of the switch is not
    // judged, while a lasting violation still fails.
    await expect(async () => expect(await axeSerious(page), scheme).toEqual([])).toPass({ timeout: 10_000 });
    await page.getByRole('button', { name: 'New automation' }).click();
    const dialog = page.getByRole('dialog', { name: 'New automation' });
    await dialog.getByLabel('Repeats').selectOption({ label: 'On chosen days' });
    await dialog.getByText('Advanced (cron)').click();
    expect(await axeSerious(page), `${scheme}, the picker`).toEqual([]);
    await screenshot(page, `automation-picker-${scheme}`);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    // Gone, backdrop and all, before the list is judged again: a fading backdrop dims the text behind it.
    await expect(dialog).toBeHidden();
  }
});
