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
  // Publishing on day 0, then nothing for two days, then on days 3 and 4, then a day for the figures to grow:
  // the chart must draw the quiet days as zeros, not join day 0 to day 3.
  const published: string[] = [];
  for (const [caption, daysAfter] of [
    ['Figures one', 3],
    ['Figures two', 1],
    ['Figures three', 1],
  ] as const) {
    const created = await sandboxApi<{ social_posts: { published_at: string }[] }>(host, '/api/cli/posts', {
      method: 'POST',
      body: JSON.stringify({ caption, targets }),
    });
    published.push(created.social_posts[0]!.published_at.slice(0, 10));
    await sandboxApi(host, '/_sandbox/clock', {
      method: 'POST',
      body: JSON.stringify({ advance_ms: daysAfter * 24 * 3_600_000 }),
    });
  }
  await openConnected(page, await host.nextUrl());
  await goTo(page, 'Analytics');
  // The sidebar is navigation, not prose: its links are not underlined like a link in a sentence.
  await expect(page.locator('.nav-link').first()).toHaveCSS('text-decoration-line', 'none');
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
  // Every day from the first with figures to the last, the quiet ones included: one dot a day on each area.
  const listed = (await sandboxApi<{ by_day: { date: string }[] }>(host, '/api/cli/analytics')).by_day;
  const span = (Date.parse(listed.at(-1)!.date) - Date.parse(listed[0]!.date)) / 86_400_000 + 1;
  expect(span).toBeGreaterThan(listed.length);
  await expect(
    page
      .getByRole('figure', { name: 'Over time chart' })
      .locator('.recharts-area-dots')
      .first()
      .locator('circle'),
  ).toHaveCount(span);
  await screenshot(page, 'analytics');

  // The engagement rate is likes, comments and shares per impression, from the service's own totals.
  const all = await sandboxApi<{ totals: Record<'impressions' | 'likes' | 'comments' | 'shares', number> }>(
    host,
    '/api/cli/analytics',
  );
  const t = all.totals;
  const rate = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 }).format(
    (t.likes + t.comments + t.shares) / t.impressions,
  );
  await expect(totals.locator('.total').filter({ hasText: 'Engagement rate' })).toContainText(rate);

  // A closed range compares with the same number of days just before it: days 3–4 against days 1–2 (quiet,
  // so nothing to compare), then days 2–4 against days −1 to 1, which hold day 0's post.
  const day = (iso: string, plus: number) => {
    const d = new Date(`${iso}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() + plus);
    return d.toISOString().slice(0, 10);
  };
  await page.getByLabel('From', { exact: true }).fill(day(published[0]!, 2));
  await page.getByLabel('To', { exact: true }).fill(day(published[0]!, 4));
  const impressions = totals.locator('.total').filter({ hasText: 'Impressions' });
  const window = (from: number, to: number) =>
    sandboxApi<{ totals: { impressions: number } }>(
      host,
      `/api/cli/analytics?start_date=${day(published[0]!, from)}T00:00:00Z&end_date=${day(published[0]!, to + 1)}T00:00:00Z`,
    );
  const [now, before] = [(await window(2, 4)).totals.impressions, (await window(-1, 1)).totals.impressions];
  expect(before).toBeGreaterThan(0);
  const change = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 }).format(
    Math.abs(now - before) / before,
  );
  await expect(impressions).toContainText(
    `${change} ${now > before ? 'more' : 'fewer'} than the previous 3 days`,
  );
  await page.getByRole('button', { name: 'All time' }).click();

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
