import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type { Account } from '../../src-shared/api/accounts';
import type { Delivery } from '../../src-shared/api/posts';
import { expect, test } from './support/fixtures';
import { dayAfter } from './support/dates';
import { dropFiles, goTo, screenshot } from './support/page';
import { sandboxApi } from './support/web-host';

interface SandboxState {
  readonly posts: number;
  readonly deliveries: Readonly<Record<string, number>>;
  readonly batches: number;
}

test('posts exported as CSV, one caption edited, re-imported on Bulk: that caption alone changes', async ({
  app: page,
  host,
}) => {
  const { accounts } = await sandboxApi<{ accounts: Account[] }>(host, '/api/cli/accounts');
  const linkedin = accounts.find((a) => a.platform === 'linkedin');
  const x = accounts.find((a) => a.platform === 'x');
  expect(linkedin && x).toBeTruthy();
  const tag = Date.now().toString(36);
  const created: string[] = [];
  for (const [i, caption] of [
    `Export ${tag} one`,
    `=Export ${tag} formula`,
    `Export ${tag} three`,
  ].entries()) {
    const res = await sandboxApi<{ post: { id: string } }>(host, '/api/cli/posts', {
      method: 'POST',
      body: JSON.stringify({
        caption,
        targets: [
          { platform: 'linkedin', social_account_id: linkedin?.id },
          { platform: 'x', social_account_id: x?.id },
        ],
        scheduled_at: `${dayAfter(10 + i)}T09:00:00Z`,
      }),
    });
    created.push(res.post.id);
  }
  const target = created[2] as string;

  await goTo(page, 'Posts');
  // Posts is a timeline of cards: the post's card, in the list (not a preview elsewhere on the page).
  await expect(
    page
      .getByRole('region', { name: 'Post list' })
      .getByRole('article')
      .filter({ hasText: `Export ${tag} three` })
      .first(),
  ).toBeVisible();
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export posts as CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^postdesk-posts-\d{4}-\d{2}-\d{2}\.csv$/);
  await expect(page.getByText(/^Exported \d+ posts to postdesk-posts-/)).toBeVisible();
  await screenshot(page, 'export-posts');
  const text = await readFile((await download.path()) as string, 'utf8');
  const rows = parse(text, { columns: true, bom: true }) as Record<string, string>[];
  const mine = rows.filter((r) => created.includes(r.post_id as string));
  expect(mine).toHaveLength(3);
  // A spreadsheet would run a caption starting with "="; the file holds it as text.
  expect(mine.find((r) => r.post_id === created[1])?.caption).toBe(`'=Export ${tag} formula`);
  expect(mine.find((r) => r.post_id === target)?.statuses).toBe('scheduled;scheduled');

  const edited = rows.map((r) =>
    r.post_id === target ? { ...r, caption: `Export ${tag} three, edited` } : r,
  );
  const before = await sandboxApi<{ posts: Delivery[] }>(host, '/api/cli/posts?limit=100');
  const stateBefore = await sandboxApi<SandboxState>(host, '/_sandbox/state');

  await goTo(page, 'Bulk');
  await dropFiles(page, page.getByRole('group', { name: 'CSV drop zone' }), [
    {
      name: `export-${tag}.csv`,
      type: 'text/csv',
      base64: Buffer.from(stringify(edited, { header: true })).toString('base64'),
    },
  ]);
  await expect(page.getByRole('heading', { name: `Dry run: export-${tag}.csv` })).toBeVisible();
  const summary = page.getByLabel('Plan summary');
  await expect(summary.getByRole('definition').nth(1)).toHaveText('1');
  await expect(summary.getByRole('definition').nth(2)).toHaveText(String(rows.length - 1));
  await expect(page.getByText('This file names existing posts')).toBeVisible();
  await expect(
    page
      .getByRole('table', { name: 'Validation' })
      .getByRole('row')
      .filter({ hasText: `${tag} three, edited` }),
  ).toContainText('update caption');
  await screenshot(page, 'export-reimport-plan');
  await page.getByRole('button', { name: 'Update 1 post' }).click();
  await expect(page.getByText(`Updated 1 post: 0 failed, ${rows.length - 1} unchanged.`)).toBeVisible({
    timeout: 30_000,
  });
  await screenshot(page, 'export-reimport-done');

  // The service: the same posts and deliveries, no batch, and of all it lists only the edited caption differs.
  const stateAfter = await sandboxApi<SandboxState>(host, '/_sandbox/state');
  expect(stateAfter.posts).toBe(stateBefore.posts);
  expect(stateAfter.deliveries).toEqual(stateBefore.deliveries);
  expect(stateAfter.batches).toBe(stateBefore.batches);
  const after = await sandboxApi<{ posts: Delivery[] }>(host, '/api/cli/posts?limit=100');
  const was = new Map(before.posts.map((d) => [d.id, d]));
  expect(after.posts.map((d) => d.id).sort()).toEqual([...was.keys()].sort());
  for (const d of after.posts) {
    const old = was.get(d.id) as Delivery;
    if (d.post_id === target) {
      expect(d.caption).toBe(`Export ${tag} three, edited`);
      expect({ ...d, caption: old.caption, updated_at: old.updated_at }).toEqual(old);
    } else {
      expect(d).toEqual(old);
    }
  }
});

test('Calendar, Analytics and Automations each export what they show', async ({ app: page }) => {
  for (const [screen, name] of [
    ['Calendar', 'Export the range on screen as JSON'],
    ['Analytics', 'Export these figures as CSV'],
  ] as const) {
    await goTo(page, screen);
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name }).click();
    expect((await downloading).suggestedFilename()).toMatch(
      new RegExp(`^postdesk-${screen === 'Calendar' ? 'calendar' : 'analytics'}-.*\\.(json|csv)$`),
    );
  }
  await goTo(page, 'Automations');
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export run history as CSV' }).click();
  const rows = (await readFile((await (await downloading).path()) as string, 'utf8')).trim().split('\n');
  expect(rows[0]).toContain('"run_id","automation_id","automation_name"');
  await screenshot(page, 'export-runs');
});

test('an export that fails says so under its control, in words for people', async ({ app: page, host }) => {
  const faults = (settings: Record<string, unknown>) =>
    sandboxApi(host, '/_sandbox/faults', { method: 'POST', body: JSON.stringify(settings) });
  await goTo(page, 'Analytics');
  await faults({ error_rate: 1, paths: ['/api/cli/analytics'] });
  try {
    await page.getByRole('button', { name: 'Export these figures as CSV' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'The export did not finish' });
    await expect(alert).toBeVisible({ timeout: 30_000 });
    await expect(alert).not.toContainText(/SANDBOX_FAULT|503|ECONN|\/api\//);
    await screenshot(page, 'export-failed');
  } finally {
    await faults({});
  }
  await page.getByRole('button', { name: 'Dismiss' }).click();
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export these figures as CSV' }).click();
  expect((await downloading).suggestedFilename()).toMatch(/^postdesk-analytics-.*\.csv$/);
});

test('the posts export follows the filters on screen: a status chosen on Posts is the status exported', async ({
  app: page,
}) => {
  await goTo(page, 'Posts');
  await page.getByLabel('Status', { exact: true }).selectOption('draft');
  await expect(page.getByRole('region', { name: 'Post list' }).getByRole('article').first()).toBeVisible();
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export posts as CSV' }).click();
  const text = await readFile((await (await downloading).path()) as string, 'utf8');
  const rows = parse(text, { columns: true, bom: true }) as Record<string, string>[];
  expect(rows.length).toBeGreaterThan(0);
  // Only drafts: the scheduled and published posts the screen hides are not in the file either.
  for (const r of rows) expect((r.statuses as string).split(';')).toContain('draft');
  expect(
    rows.some((r) => /scheduled|posted/.test(r.statuses as string) && !r.statuses?.includes('draft')),
  ).toBe(false);
});
