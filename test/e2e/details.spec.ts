import type { Page } from '@playwright/test';
import type { Account } from '../../src-shared/api/accounts';
import type { CreatePostResponse } from '../../src-shared/api/posts';
import { expect, test } from './support/fixtures';
import { dayAfter } from './support/dates';
import { SCREENS, dropFiles, goTo, screenshot } from './support/page';
import { sandboxApi, type WebHost } from './support/web-host';

/** Issue 17, items 9 to 15: layout and details, each checked where a person would see it. */

interface Box {
  getBoundingClientRect(): { left: number; right: number; top: number; bottom: number; width: number };
}
interface Doc {
  document: { documentElement: { scrollWidth: number; clientWidth: number } };
}

async function accountsOf(host: WebHost) {
  return (await sandboxApi<{ accounts: Account[] }>(host, '/api/cli/accounts')).accounts;
}

/** Nothing of the screen sticks out of the window sideways. */
const noSidewaysOverflow = async (page: Page, where: string) => {
  const { scroll, client } = await page.evaluate(() => {
    const d = (globalThis as unknown as Doc).document.documentElement;
    return { scroll: d.scrollWidth, client: d.clientWidth };
  });
  expect(scroll, where).toBeLessThanOrEqual(client);
};

test('item 9: at 800×600 the sidebar keeps its icons, every link shows, and Posts keeps its time and Edit', async ({
  app: page,
  host,
}) => {
  const x = (await accountsOf(host)).find((a) => a.platform === 'x');
  const tag = `Narrow ${Date.now().toString(36)}`;
  await sandboxApi(host, '/api/cli/posts', {
    method: 'POST',
    body: JSON.stringify({
      caption: `${tag} with a caption long enough to need the room the time column would take`,
      targets: [{ social_account_id: x?.id, platform: 'x' }],
      scheduled_at: `${dayAfter(3)}T10:00:00Z`,
    }),
  });
  for (const scheme of ['light', 'dark'] as const) {
    await page.setViewportSize({ width: 800, height: 600 });
    await page.emulateMedia({ colorScheme: scheme });
    const nav = page.getByRole('navigation', { name: 'Main' });
    const sidebar = await page
      .locator('.sidebar')
      .evaluate((el) => (el as unknown as Box).getBoundingClientRect());
    expect(sidebar.width).toBeLessThanOrEqual(64);
    for (const label of SCREENS) {
      const link = nav.getByRole('link', { name: label });
      await expect(link).toBeVisible();
      const box = await link.evaluate((el) => (el as unknown as Box).getBoundingClientRect());
      expect(box.bottom, label).toBeLessThanOrEqual(600);
      expect(box.right, label).toBeLessThanOrEqual(sidebar.right);
    }
    for (const label of SCREENS) {
      await goTo(page, label);
      await noSidewaysOverflow(page, `${label} (${scheme})`);
      await screenshot(page, `details-800x600-${label.toLowerCase()}-${scheme}`);
    }
    await goTo(page, 'Posts');
    await page.getByLabel('Search').fill(tag);
    const row = page.getByRole('article').filter({ hasText: tag });
    await expect(row.locator('time')).toHaveText(/\d/);
    await expect(row.locator('time')).toBeVisible();
    const card = await row.evaluate((el) => (el as unknown as Box).getBoundingClientRect());
    const edit = await row
      .getByRole('button', { name: /^Edit post/ })
      .evaluate((el) => (el as unknown as Box).getBoundingClientRect());
    expect(edit.right).toBeLessThanOrEqual(card.right);
    await screenshot(page, `details-800x600-posts-row-${scheme}`);
  }
  // At 1000 px the time column stays too.
  await page.setViewportSize({ width: 1000, height: 700 });
  await expect(page.getByRole('article').filter({ hasText: tag }).locator('time')).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.emulateMedia({ colorScheme: 'light' });
});

test('item 10: the post dialog offers only new accounts, says what reaches every delivery, and what a delete removes', async ({
  app: page,
  host,
}) => {
  const accounts = await accountsOf(host);
  const x = accounts.find((a) => a.platform === 'x');
  const linkedin = accounts.find((a) => a.platform === 'linkedin');
  const tag = `Two targets ${Date.now().toString(36)}`;
  await sandboxApi<CreatePostResponse>(host, '/api/cli/posts', {
    method: 'POST',
    body: JSON.stringify({
      caption: tag,
      targets: [
        { social_account_id: x?.id, platform: 'x' },
        { social_account_id: linkedin?.id, platform: 'linkedin' },
      ],
      scheduled_at: `${dayAfter(5)}T09:00:00Z`,
    }),
  });
  await goTo(page, 'Posts');
  // Only X's rows on screen: the dialog must still know the post goes to LinkedIn too.
  await page.getByLabel('Platform').selectOption('x');
  await page.getByLabel('Search').fill(tag);
  await page.getByRole('button', { name: new RegExp(`^Edit post: ${tag}`) }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit post' });
  const add = dialog.getByRole('group', { name: 'Add accounts' });
  await expect(add).toBeVisible();
  await expect(add.getByRole('checkbox', { name: linkedin?.name })).toHaveCount(0);
  await expect(add.getByRole('checkbox', { name: x?.name })).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: 'Save caption for all 2' })).toBeVisible();
  await expect(dialog.getByText('saving it changes all 2 deliveries of this post')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Cancel all 2 to draft' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(dialog).toContainText(`Delete the delivery to ${x?.name}? The post's 1 other delivery stays.`);
  await screenshot(page, 'details-post-dialog');
  await dialog.getByRole('button', { name: 'Yes, delete' }).click();
  await expect(page.getByRole('status').filter({ hasText: "the post's others stay" })).toBeVisible();
  await page.getByLabel('Platform', { exact: true }).selectOption('all');
});

test('item 11: analytics accounts follow the platform, a backwards range is flagged, presets show, no raw id, charts have legends', async ({
  app: page,
  host,
}) => {
  const accounts = await accountsOf(host);
  await goTo(page, 'Analytics');
  await page.getByLabel('Platform', { exact: true }).selectOption('linkedin');
  const options = await page.getByLabel('Account', { exact: true }).locator('option').allTextContents();
  expect(options.slice(1).length).toBeGreaterThan(0);
  for (const o of options.slice(1)) expect(o).toMatch(/^LinkedIn · /);
  await page.getByLabel('Platform', { exact: true }).selectOption('all');

  await page.getByLabel('From', { exact: true }).fill('2031-05-10');
  await page.getByLabel('To', { exact: true }).fill('2031-05-01');
  await expect(page.getByLabel('From', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('To', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('From is after To')).toBeVisible();
  await screenshot(page, 'details-analytics-backwards');

  const presets = page.getByRole('group', { name: 'Date presets' });
  await presets.getByRole('button', { name: '30 days' }).click();
  await expect(presets.getByRole('button', { name: '30 days' })).toHaveAttribute('aria-pressed', 'true');
  await expect(presets.getByRole('button', { name: '7 days' })).toHaveAttribute('aria-pressed', 'false');
  await presets.getByRole('button', { name: 'All time' }).click();
  await expect(presets.getByRole('button', { name: 'All time' })).toHaveAttribute('aria-pressed', 'true');

  const charts = page.getByRole('figure');
  await expect(charts.first()).toBeVisible();
  for (const chart of await charts.all())
    await expect(chart.locator('.recharts-legend-wrapper')).toHaveCount(1);

  // A post's figures: its caption or a sentence, never its id.
  const x = accounts.find((a) => a.platform === 'x');
  const created = await sandboxApi<CreatePostResponse>(host, '/api/cli/posts', {
    method: 'POST',
    body: JSON.stringify({
      caption: 'Figures please',
      targets: [{ social_account_id: x?.id, platform: 'x' }],
    }),
  });
  await page.goto(page.url().replace(/#.*$/, `#/analytics?post=${created.post.id}`));
  await expect(page.getByRole('heading', { level: 1, name: 'Post figures' })).toBeVisible();
  await expect(page.locator('.page-header__subtitle')).not.toContainText(created.post.id);
  for (const chart of await page.getByRole('figure').all())
    await expect(chart.locator('.recharts-legend-wrapper')).toHaveCount(1);
  await screenshot(page, 'details-analytics-post');
});

test('item 12: after a bulk submit the card says so, rows are numbered one way, and the same file again is "already imported"', async ({
  app: page,
  host,
}) => {
  const x = (await accountsOf(host)).find((a) => a.platform === 'x');
  const tag = Date.now().toString(36);
  const csv = [
    'caption,targets,scheduled_at',
    ...Array.from({ length: 3 }, (_, i) => `"Again ${tag} #${i + 1}",x:${x?.id},${dayAfter(6)}T0${i}:15:00Z`),
  ].join('\n');
  const file = { name: `again-${tag}.csv`, type: 'text/csv', base64: Buffer.from(csv).toString('base64') };
  await goTo(page, 'Bulk');
  await dropFiles(page, page.getByRole('group', { name: 'CSV drop zone' }), [file]);
  const title = page.locator('#bulk-plan-title');
  await expect(title).toHaveText(`Dry run: again-${tag}.csv`);
  const rows = page.getByRole('table', { name: 'Validation' }).getByRole('row');
  await expect(rows.nth(1).getByRole('cell').first()).toHaveText('1');
  await page.getByRole('button', { name: /^Submit 3 posts/ }).click();
  await expect(title).toHaveText(`Imported: again-${tag}.csv`, { timeout: 30_000 });
  await expect(page.getByText('Sent to the service.')).toBeVisible();
  const history = page.getByRole('table', { name: 'Batches' });
  await history
    .getByRole('row')
    .filter({ hasText: `again-${tag}.csv` })
    .getByRole('button', { name: 'Details' })
    .click();
  const items = page.getByRole('list', { name: /^Results of batch/ }).getByRole('listitem');
  await expect(items.first()).toContainText('Row 1');
  await expect(items.nth(2)).toContainText('Row 3');

  await page.getByRole('button', { name: 'Import another CSV' }).click();
  await dropFiles(page, page.getByRole('group', { name: 'CSV drop zone' }), [file]);
  await page.getByRole('button', { name: /^Submit 3 posts/ }).click();
  await expect(title).toHaveText(`Imported before: again-${tag}.csv`, { timeout: 30_000 });
  await expect(page.getByRole('status').filter({ hasText: 'imported already' })).toContainText(
    'nothing was sent again',
  );
  await screenshot(page, 'details-bulk-again');

  // The same sandbox reached by its address and key instead of "Try offline": still the same import.
  const before = await sandboxApi<{ posts: unknown[] }>(host, '/api/cli/posts?limit=100');
  const reconnect = async (how: () => Promise<void>) => {
    await goTo(page, 'Settings');
    await page.getByRole('button', { name: 'Disconnect' }).click();
    await page.getByRole('button', { name: 'Yes, disconnect' }).click();
    await how();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  };
  await reconnect(async () => {
    await page.getByLabel('Service URL').fill(host.sandboxUrl);
    await page.getByLabel('API key').fill(host.apiKey);
    await page.getByRole('button', { name: 'Connect' }).click();
  });
  await goTo(page, 'Bulk');
  await dropFiles(page, page.getByRole('group', { name: 'CSV drop zone' }), [file]);
  await page.getByRole('button', { name: /^Submit 3 posts/ }).click();
  await expect(title).toHaveText(`Imported before: again-${tag}.csv`, { timeout: 30_000 });
  const after = await sandboxApi<{ posts: unknown[] }>(host, '/api/cli/posts?limit=100');
  expect(after.posts).toHaveLength(before.posts.length);
  await screenshot(page, 'details-bulk-again-by-address');
  await reconnect(() => page.getByRole('button', { name: 'Try offline' }).click());
});

test('item 14: a Markdown table renders in the article preview and the published view', async ({
  app: page,
}) => {
  await goTo(page, 'Articles');
  const title = `Table ${Date.now().toString(36)}`;
  await page.getByLabel('Title').fill(title);
  await page
    .getByLabel('Body (Markdown)')
    .fill('| Plan | Price |\n|---|---|\n| Free | 0 |\n| Pro | 9 |\n\n~~old~~');
  const preview = page.getByRole('region', { name: 'Preview' });
  await expect(preview.getByRole('table')).toBeVisible();
  await expect(preview.getByRole('columnheader')).toHaveText(['Plan', 'Price']);
  await expect(preview.locator('del')).toHaveText('old');
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  const view = page.getByRole('article', { name: title });
  await expect(view.getByRole('table').getByRole('row')).toHaveCount(3);
  await screenshot(page, 'details-markdown-table');
});

test('item 15: Disconnect asks first, the executor name shows what applies, and a notice never covers what it is about', async ({
  app: page,
}) => {
  await goTo(page, 'Automations');
  const name = (await page.locator('.executor .facts dd').first().textContent())?.trim() ?? '';
  expect(name.length).toBeGreaterThan(0);
  await goTo(page, 'Settings');
  await expect(page.getByLabel('Executor name')).toHaveAttribute('placeholder', name);

  await page.getByRole('button', { name: 'Disconnect' }).click();
  const confirm = page.getByRole('group', { name: 'Disconnect?' });
  await expect(confirm).toContainText('Disconnect from the offline sandbox?');
  await screenshot(page, 'details-disconnect');
  await confirm.getByRole('button', { name: 'Stay connected' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();

  // Save a setting: the notice appears beside the content, never on top of the button just pressed.
  const concurrency = page.getByLabel('Concurrent runs');
  const was = await concurrency.inputValue();
  await concurrency.fill(was === '2' ? '3' : '2');
  const save = page.getByRole('button', { name: 'Save settings' });
  await save.scrollIntoViewIfNeeded();
  await save.click();
  const notice = page.getByRole('status').filter({ hasText: 'Settings saved.' });
  await expect(notice).toBeVisible();
  const covered = await page.evaluate(() => {
    const g = globalThis as unknown as {
      document: {
        querySelector(s: string): (Box & { contains(n: unknown): boolean }) | null;
        querySelectorAll(s: string): ArrayLike<Box>;
        elementFromPoint(x: number, y: number): unknown;
      };
    };
    const toasts = Array.from(g.document.querySelectorAll('.toast')).map((t) => t.getBoundingClientRect());
    const main = g.document.querySelector('.main');
    if (!main) return true;
    const m = main.getBoundingClientRect();
    return toasts.some((t) => t.top < m.bottom && t.bottom > m.top && t.left < m.right && t.right > m.left);
  });
  expect(covered).toBe(false);
  await screenshot(page, 'details-notice-below');
  await concurrency.fill(was);
  await save.click();
});
