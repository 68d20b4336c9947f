import type { Account } from '../../src-shared/api/accounts';
import { expect, test } from './support/fixtures';
import { dayAfter } from './support/dates';
import { dropFiles, goTo, screenshot } from './support/page';
import { sandboxApi } from './support/web-host';

interface SandboxState {
  readonly deliveries: Readonly<Record<string, number>>;
  readonly batches: number;
}

test('a 150-row CSV is checked, planned as 2 batches, submitted with progress, and listed per batch', async ({
  app: page,
  host,
}) => {
  const { accounts } = await sandboxApi<{ accounts: Account[] }>(host, '/api/cli/accounts');
  const linkedin = accounts.find((a) => a.platform === 'linkedin');
  expect(linkedin).toBeDefined();
  const tag = Date.now().toString(36);
  const rows = Array.from(
    { length: 150 },
    (_, i) => `"Bulk ${tag} #${i + 1}",linkedin:${linkedin?.id},${dayAfter(5 + (i % 20))}T0${i % 10}:30:00Z,`,
  );
  // One more row, broken: it must be reported by line and field, and left out.
  rows.splice(40, 0, `"Bulk ${tag} broken",myspace:${linkedin?.id},${dayAfter(5)}T09:00:00Z,`);
  const csv = `caption,targets,scheduled_at,action\n${rows.join('\n')}\n`;
  const before = await sandboxApi<SandboxState>(host, '/_sandbox/state');

  await goTo(page, 'Bulk');
  await dropFiles(page, page.getByRole('group', { name: 'CSV drop zone' }), [
    { name: `campaign-${tag}.csv`, type: 'text/csv', base64: Buffer.from(csv).toString('base64') },
  ]);
  const summary = page.getByLabel('Plan summary').getByRole('definition');
  await expect(page.getByRole('heading', { name: `Dry run: campaign-${tag}.csv` })).toBeVisible();
  await expect(summary.nth(0)).toHaveText('151');
  await expect(summary.nth(1)).toHaveText('150');
  await expect(summary.nth(2)).toHaveText('1');
  await expect(summary.nth(3)).toHaveText('2');
  await expect(page.getByRole('list', { name: 'Batches' }).getByRole('listitem')).toHaveText([
    'Batch 1: 100 posts',
    'Batch 2: 50 posts',
  ]);
  const bad = page.getByRole('table', { name: 'Validation' }).getByRole('row').filter({ hasText: 'myspace' });
  // Rows are numbered as data rows (the header is not one), the same in the plan and in each batch's results.
  await expect(bad.getByRole('cell').first()).toHaveText('41');
  await expect(bad).toContainText('targets');
  await screenshot(page, 'bulk-plan');

  await page.getByRole('button', { name: 'Submit 150 posts in 2 batches' }).click();
  await expect(page.getByRole('progressbar', { name: 'Bulk submission' })).toBeVisible();
  await expect(page.getByText('Submitted 2 batches: 150 created, 0 failed.')).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByRole('progressbar', { name: 'Bulk submission' })).toHaveAttribute(
    'aria-valuenow',
    '100',
  );
  await expect(page.getByText('2 of 2 batches sent · 150 of 150 posts')).toBeVisible();

  const history = page.getByRole('table', { name: 'Batches' });
  const mine = history.getByRole('row').filter({ hasText: `campaign-${tag}.csv` });
  await expect(mine).toHaveCount(2);
  await mine.first().getByRole('button', { name: 'Details' }).click();
  await expect(
    page
      .getByRole('list', { name: /^Results of batch/ })
      .getByRole('listitem')
      .first(),
  ).toContainText('created');
  await screenshot(page, 'bulk-submitted');

  const after = await sandboxApi<SandboxState>(host, '/_sandbox/state');
  expect(after.batches - before.batches).toBe(2);
  expect((after.deliveries.scheduled ?? 0) - (before.deliveries.scheduled ?? 0)).toBe(150);
});
