import { expect, test } from './support/fixtures';
import { goTo, screenshot } from './support/page';

test('the web host leaves updates to the desktop app and hides the update controls', async ({ app }) => {
  await goTo(app, 'Settings');
  const updates = app.getByRole('region', { name: 'Updates' });
  await expect(updates).toContainText('Updates are managed by the desktop app');
  await expect(updates.getByRole('button', { name: 'Check for updates' })).toHaveCount(0);
  await expect(updates.getByRole('button', { name: 'Restart now' })).toHaveCount(0);
  await expect(updates.getByRole('radiogroup', { name: 'Update channel' })).toHaveCount(0);
  await expect(app.getByRole('checkbox', { name: 'Start Postdesk at login' })).toHaveCount(0);
  await updates.scrollIntoViewIfNeeded();
  await screenshot(app, 'settings-updates-web');
});

test('the missed-run policy, grace window and concurrency persist across a reload', async ({ app }) => {
  await goTo(app, 'Settings');
  const concurrency = app.getByLabel('Concurrent runs');
  const grace = app.getByLabel('Grace window (minutes)');
  const before = { concurrency: await concurrency.inputValue(), grace: await grace.inputValue() };
  const policy = app.getByRole('radio', { name: /^Skip/ });
  await expect(policy).not.toBeChecked();
  const checkedBefore = await app.locator('input[name="missed-run-policy"]:checked').inputValue();

  const next = before.concurrency === '3' ? '4' : '3';
  const nextGrace = before.grace === '40' ? '41' : '40';
  await concurrency.fill(next);
  await grace.fill(nextGrace);
  await policy.check();
  await app.getByRole('button', { name: 'Save settings' }).click();
  await expect(app.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible();
  await expect(app.getByRole('button', { name: 'Save settings' })).toBeDisabled();

  await app.reload();
  await expect(app.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(app.getByLabel('Concurrent runs')).toHaveValue(next);
  await expect(app.getByLabel('Grace window (minutes)')).toHaveValue(nextGrace);
  await expect(app.getByRole('radio', { name: /^Skip/ })).toBeChecked();
  await screenshot(app, 'settings');

  // Out of range (1–16): the field is invalid, so the form is not sent and nothing is saved.
  await app.getByLabel('Concurrent runs').fill('17');
  await expect(app.locator('#settings-concurrency:invalid')).toHaveCount(1);
  await app.getByRole('button', { name: 'Save settings' }).click();
  await app.reload();
  await expect(app.getByLabel('Concurrent runs')).toHaveValue(next);

  // The host is shared with the other flows: put the executor's settings back.
  await app.getByLabel('Concurrent runs').fill(before.concurrency);
  await app.getByLabel('Grace window (minutes)').fill(before.grace);
  await app.locator(`input[name="missed-run-policy"][value="${checkedBefore}"]`).check();
  await app.getByRole('button', { name: 'Save settings' }).click();
  await expect(app.getByRole('button', { name: 'Save settings' })).toBeDisabled();
});

test('Settings shows the executor’s activity: in sync with the service, and its figures', async ({ app }) => {
  await goTo(app, 'Settings');
  const card = app.getByRole('region', { name: 'Executor activity' });
  await expect(card).toContainText('in sync', { timeout: 15_000 });
  await expect(card.getByRole('term').filter({ hasText: 'Last sync' })).toBeVisible();
  await expect(card.getByRole('term').filter({ hasText: 'Agents running' })).toBeVisible();
  await expect(card).toContainText('Counted since the executor started on this computer');
  await card.scrollIntoViewIfNeeded();
  await screenshot(app, 'settings-executor-activity');
});
