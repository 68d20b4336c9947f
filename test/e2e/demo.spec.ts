import { expect, test } from '@playwright/test';
import { goTo, screenshot } from './support/page';
import { sandboxApi, startWebHost, type WebHost } from './support/web-host';

/**
 * Issue 17, item 6: the first minutes of the offline demo. With nothing set up, Try offline shows automations
 * that succeed (the built-in caption card runs them), and the Automations screen shows, per automation, which
 * agent runs it on this computer and its folder, with a way to change them.
 */

// A fresh host: nothing configured, as a new user has it.
let host: WebHost;
test.beforeAll(async () => {
  host = await startWebHost();
});
test.afterAll(async () => {
  await host?.stop();
});

interface RunsState {
  readonly runs: Readonly<Record<string, number>>;
}

test('Try offline: both demo automations run to completion out of the box, and say how they run here', async ({
  page,
}) => {
  test.setTimeout(150_000);
  await page.goto(await host.nextUrl());
  await page.getByRole('button', { name: 'Try offline' }).click();
  await goTo(page, 'Automations');
  const list = page.getByRole('list', { name: 'Automations list' });
  const names = ['Hourly tip clip', 'Hourly recap (auto mode)'];
  for (const name of names) {
    const row = list.getByRole('listitem').filter({ hasText: name });
    await expect(row).toContainText('On this computer: Caption card (built in)');
    await expect(row).toContainText('the offline demo’s default');
  }
  await screenshot(page, 'demo-automations');

  const detail = page.getByRole('region', { name: 'Run detail' });
  for (const name of names) {
    await list.getByRole('button', { name: `Run ${name} now` }).click();
    await expect(detail.getByRole('heading', { name })).toBeVisible();
    await expect(detail.getByRole('status', { name: 'Run completed' })).toBeVisible({ timeout: 60_000 });
    // Item 13: the agent's own steps appear in order inside its `agent` step.
    await expect(
      detail.getByRole('list', { name: 'Steps of agent' }).locator(':scope > li .timeline__name'),
    ).toHaveText(['render', 'write']);
    await screenshot(page, `demo-run-${name.startsWith('Hourly tip') ? 'tip' : 'recap'}`);
  }
  // The selected run is in the address: a reload shows it again.
  expect(page.url()).toMatch(/#\/automations\?run=/);
  await page.reload();
  await expect(detail.getByRole('heading', { name: names[1] })).toBeVisible();
  // The service agrees: both runs completed, none failed.
  const state = await sandboxApi<RunsState>(host, '/_sandbox/state');
  expect(state.runs.completed ?? 0).toBeGreaterThanOrEqual(2);
  expect(state.runs.failed ?? 0).toBe(0);

  // The choice is the user's, per automation: here it waits for the terminal's confirmation, and says so.
  const tip = list.getByRole('listitem').filter({ hasText: names[0] });
  await tip.getByRole('button', { name: `Change how this computer runs ${names[0]}` }).click();
  const form = tip.getByRole('form', { name: `How this computer runs ${names[0]}` });
  await form.getByLabel('Agent').selectOption('folder');
  await form.getByLabel('Folder').fill('~/Postdesk/clips');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByRole('alert')).toContainText('terminal that started it');
  await screenshot(page, 'demo-change-agent');

  // Made where Postdesk was started, the choice shows on the screen.
  await host.cli([
    'config',
    'set',
    'automationAgents',
    JSON.stringify({ '5d0c3a7e-8b21-4f6a-9c4d-2e1f0a9b8c01': 'folder' }),
  ]);
  await page.reload();
  await goTo(page, 'Automations');
  await expect(list.getByRole('listitem').filter({ hasText: names[0] })).toContainText(
    'On this computer: Folder agent (built in) · no folder chosen',
  );

  // Item 13: a run that fails says why once, above its steps (the log keeps its own lines).
  await list.getByRole('button', { name: `Run ${names[0]} now` }).click();
  await expect(detail.getByRole('status', { name: 'Run failed' })).toBeVisible({ timeout: 60_000 });
  const why = 'no folder is set for this automation on this computer';
  await expect(detail.getByRole('note')).toContainText(why);
  const times = await detail.evaluate((el, text) => {
    const e = el as unknown as { querySelectorAll(s: string): ArrayLike<{ textContent: string | null }> };
    return Array.from(e.querySelectorAll('.alert, .timeline__message')).filter((n) =>
      (n.textContent ?? '').includes(text),
    ).length;
  }, why);
  expect(times).toBe(1);
  await screenshot(page, 'demo-run-failed');
});
