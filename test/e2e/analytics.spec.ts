import { expect, test } from '@playwright/test';
import type { Account } from '../../src-shared/api/accounts';
import { goTo, openConnected, screenshot } from './support/page';
import { sandboxApi, startWebHost, type WebHost } from './support/web-host';

// This flow moves the sandbox's clock forward (figures grow with a post's age), so it has a host of its own.
let host: WebHost;
test.beforeAll(async () => {
  host = await startWebHost();
});
test.afterAll(async () => {
  await host.stop();
});

test('analytics charts render the figures of published posts, by day, platform and account', async ({
  page,
}) => {
  const { accounts } = await sandboxApi<{ accounts: Account[] }>(host, '/api/cli/accounts');
  const targets = accounts
    .filter((a) => a.platform !== 'youtube')
    .map((a) => ({ social_account_id: a.id, platform: a.platform }));
  // Three days of publishing, a post a day, then a day for the figures to grow.
  for (const caption of ['Figures one', 'Figures two', 'Figures three']) {
    await sandboxApi(host, '/api/cli/posts', { method: 'POST', body: JSON.stringify({ caption, targets }) });
    await sandboxApi(host, '/_sandbox/clock', {
      method: 'POST',
      body: JSON.stringify({ advance_ms: 24 * 3_600_000 }),
    });
  }

  await openConnected(page, await host.nextUrl());
  await goTo(page, 'Analytics');
  const totals = page.getByLabel('Totals');
  await expect(totals.getByRole('definition').first()).not.toHaveText('0');

  for (const chart of ['Over time chart', 'By platform chart', 'By account chart']) {
    const figure = page.getByRole('figure', { name: chart });
    await expect(figure.locator('svg.recharts-surface').first()).toBeVisible();
  }
  await expect(
    page.getByRole('figure', { name: 'By platform chart' }).locator('.recharts-bar-rectangle'),
  ).not.toHaveCount(0);
  await expect(
    page.getByRole('figure', { name: 'By account chart' }).locator('.recharts-bar-rectangle'),
  ).not.toHaveCount(0);
  await expect(
    page.getByRole('figure', { name: 'Over time chart' }).locator('.recharts-area path'),
  ).not.toHaveCount(0);
  await screenshot(page, 'analytics');

  // One platform only: the bars follow the filter.
  await page.getByRole('combobox', { name: 'Platform' }).selectOption('linkedin');
  const byPlatform = page.getByRole('figure', { name: 'By platform chart' });
  await expect(byPlatform).toContainText('LinkedIn');
  await expect(byPlatform).not.toContainText('Instagram');
  await expect(byPlatform.locator('.recharts-bar-rectangle')).not.toHaveCount(0);

  // A single post's figures.
  await page.getByRole('combobox', { name: 'Platform' }).selectOption('all');
  await page.getByRole('table', { name: 'Top posts' }).getByRole('link').first().click();
  await expect(page.getByRole('heading', { name: 'Post figures' })).toBeVisible();
  await expect(
    page.getByRole('figure', { name: 'Engagement chart' }).locator('.recharts-bar-rectangle'),
  ).not.toHaveCount(0);
  await screenshot(page, 'analytics-post');
});
