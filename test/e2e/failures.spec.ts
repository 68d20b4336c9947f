import type { Account } from '../../src-shared/api/accounts';
import type { CreatePostResponse } from '../../src-shared/api/posts';
import { expect, test } from './support/fixtures';
import { dayAfter } from './support/dates';
import { dropFiles, goTo, screenshot } from './support/page';
import { sandboxApi, type WebHost } from './support/web-host';

/**
 * Issue 17, items 1, 2 and 5: failures are shown, never hidden. Each flow makes the failure really happen (a
 * broken file, the sandbox answering 503 to every request) and reads what the screen says about it.
 */

const faults = (host: WebHost, settings: Record<string, unknown>) =>
  sandboxApi(host, '/_sandbox/faults', { method: 'POST', body: JSON.stringify(settings) });

test.afterEach(async ({ host }) => {
  await faults(host, {});
});

const csv = (name: string, text: string) => ({
  name,
  type: 'text/csv',
  base64: Buffer.from(text).toString('base64'),
});

test('bulk: a problem with the file as a whole, an empty file and a file that is not CSV or JSON are each said', async ({
  app: page,
  host,
}) => {
  const { accounts } = await sandboxApi<{ accounts: Account[] }>(host, '/api/cli/accounts');
  const x = accounts.find((a) => a.platform === 'x');
  await goTo(page, 'Bulk');
  const zone = page.getByRole('group', { name: 'CSV drop zone' });

  // An unknown column (`schedule_at` for `scheduled_at`): the file cannot be sent, and the screen says why.
  await dropFiles(page, zone, [
    csv('typo.csv', `caption,targets,schedule_at\n"Hello",x:${x?.id},${dayAfter(3)}T09:00:00Z\n`),
  ]);
  const fileProblems = page.getByRole('list', { name: 'Problems with the file' });
  await expect(fileProblems).toContainText('Unknown column "schedule_at"');
  await expect(page.getByRole('alert').filter({ hasText: 'Nothing can be sent' })).toBeVisible();
  await expect(
    page.getByRole('table', { name: 'Validation' }).getByRole('row').filter({ hasText: 'Hello' }),
  ).toContainText('Not checked: fix the file first');
  await expect(page.getByRole('button', { name: /^Submit/ })).toBeDisabled();
  await screenshot(page, 'failures-bulk-file-issue');

  // A header and no posts.
  await page.getByRole('button', { name: 'Start over' }).click();
  await dropFiles(page, zone, [csv('empty.csv', 'caption,targets\n')]);
  await expect(fileProblems).toContainText(/the file has no posts/i);

  // Not a CSV or JSON file at all: said before anything is sent, and it stays on screen.
  await page.getByRole('button', { name: 'Start over' }).click();
  await dropFiles(page, zone, [{ name: 'notes.txt', type: 'text/plain', base64: 'aGVsbG8=' }]);
  const refused = page.getByRole('alert').filter({ hasText: 'This file cannot be imported' });
  await expect(refused).toContainText('notes.txt is not a CSV or JSON file');
  await page.waitForTimeout(1000);
  await expect(refused).toBeVisible();
  await screenshot(page, 'failures-bulk-not-csv');
});

test('a refresh that fails keeps the data, says so, says when it was loaded, and tries again', async ({
  app: page,
  host,
}) => {
  test.setTimeout(120_000);
  await goTo(page, 'Accounts');
  const accounts = page.getByRole('list', { name: 'Accounts' }).getByRole('listitem');
  await expect(accounts).not.toHaveCount(0);
  await expect(page.getByText(/^Updated /)).toBeVisible();

  await faults(host, { error_rate: 1 });
  await page.getByRole('button', { name: 'Refresh' }).click();
  const failed = page.getByRole('alert').filter({ hasText: 'Could not refresh the accounts' });
  await expect(failed).toBeVisible({ timeout: 20_000 });
  await expect(failed).toContainText('Showing what was loaded');
  await expect(accounts).not.toHaveCount(0);
  // Every screen says it too, in the sidebar.
  await expect(page.getByRole('status').filter({ hasText: 'The service is not answering' })).toBeVisible();
  await screenshot(page, 'failures-accounts-refresh');

  await faults(host, {});
  await failed.getByRole('button', { name: 'Try again' }).click();
  await expect(failed).toBeHidden({ timeout: 20_000 });
  await expect(page.getByText('Updated just now')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'The service is not answering' })).toHaveCount(0);

  // Posts: its list comes from this computer's index, which must not hide that the service stopped answering.
  await goTo(page, 'Posts');
  await expect(page.getByText(/^Updated /)).toBeVisible({ timeout: 20_000 });
  await faults(host, { error_rate: 1 });
  await page.getByRole('button', { name: 'Refresh' }).click();
  const postsFailed = page.getByRole('alert').filter({ hasText: 'Could not refresh the posts' });
  await expect(postsFailed).toBeVisible({ timeout: 45_000 });
  await expect(page.getByText('Updated just now')).toHaveCount(0);
  await screenshot(page, 'failures-posts-refresh');
  await faults(host, {});
  await postsFailed.getByRole('button', { name: 'Try again' }).click();
  await expect(postsFailed).toBeHidden({ timeout: 30_000 });
});

test('with every request to the service failing, every screen says so in words a person reads', async ({
  page,
  host,
}) => {
  test.setTimeout(240_000);
  await page.goto(await host.nextUrl());
  const nav = page.getByRole('navigation', { name: 'Main' });
  const offline = page.getByRole('button', { name: 'Try offline' });
  await expect(nav.or(offline)).toBeVisible();
  if (await offline.isVisible()) await offline.click();
  await expect(nav).toBeVisible();
  await faults(host, { error_rate: 1 });

  const notAnswering = page.getByRole('status').filter({ hasText: 'The service is not answering' });
  /** A message for a person: no status codes, error codes, channel or operation names. */
  const human = async (text: string) => {
    expect(text).not.toMatch(/SANDBOX_FAULT|\b503\b|injected|[a-z]+:[a-z][A-Za-z]+|`|\bE[A-Z]{4,}\b/);
    expect(text.length).toBeGreaterThan(20);
  };
  const screens: readonly { label: string; expect: RegExp }[] = [
    { label: 'Compose', expect: /Could not load accounts/ },
    { label: 'Posts', expect: /Could not (load|refresh) (the )?posts/ },
    { label: 'Calendar', expect: /Could not (load|refresh) the calendar/ },
    { label: 'Articles', expect: /Could not (load|refresh) (the )?articles/ },
    { label: 'Analytics', expect: /Could not (load|refresh) analytics/ },
    { label: 'Accounts', expect: /Could not (load|refresh) (the )?accounts/ },
    { label: 'Automations', expect: /Could not (load|refresh) (the )?automations/ },
    { label: 'Skills', expect: /Could not (load|refresh) (the )?skills/ },
  ];
  for (const s of screens) {
    await goTo(page, s.label);
    const alert = page.getByRole('alert').filter({ hasText: s.expect }).first();
    await expect(alert).toBeVisible({ timeout: 45_000 });
    await human(await alert.innerText());
    await expect(notAnswering).toBeVisible();
    await screenshot(page, `failures-walk-${s.label.toLowerCase()}`);
  }
  // Screens that read nothing from the service on their own still say it is not answering.
  for (const label of ['Bulk', 'Settings']) {
    await goTo(page, label);
    await expect(notAnswering).toBeVisible();
    await human(await notAnswering.innerText());
  }
  await screenshot(page, 'failures-walk-settings');
});

test('links out of the app are ordinary links: a published post and an article open in a new tab', async ({
  app: page,
  host,
  context,
}) => {
  // The outside sites answer from here: this machine has no network, and the test is about where the tab goes.
  await context.route(/^https:\/\/(www\.tiktok\.com|dev\.to)\//, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<title>outside</title>' }),
  );
  const { accounts } = await sandboxApi<{ accounts: Account[] }>(host, '/api/cli/accounts');
  const tiktok = accounts.find((a) => a.platform === 'tiktok');
  const tag = Date.now().toString(36);
  const created = await sandboxApi<CreatePostResponse>(host, '/api/cli/posts', {
    method: 'POST',
    body: JSON.stringify({
      caption: `Out now ${tag}`,
      targets: [{ social_account_id: tiktok?.id, platform: 'tiktok' }],
    }),
  });
  await goTo(page, 'Posts');
  await page.getByRole('button', { name: 'Refresh' }).click();
  await page.getByLabel('Search').fill(tag);
  await page.getByRole('button', { name: new RegExp(`^Open post: Out now ${tag}`) }).click();
  const link = page
    .getByRole('dialog', { name: 'Post details' })
    .getByRole('link', { name: 'Open on TikTok' });
  await expect(link).toHaveAttribute(
    'href',
    new RegExp(`^https://www\\.tiktok\\.com/.*${created.social_posts[0]?.id}`),
  );
  await expect(link).toHaveAttribute('target', '_blank');
  const [tab] = await Promise.all([context.waitForEvent('page'), link.click()]);
  await tab.waitForLoadState();
  expect(tab.url()).toContain('tiktok.com');
  await tab.close();
  await page.keyboard.press('Escape');

  await goTo(page, 'Articles');
  const title = `Links ${tag}`;
  await page.getByLabel('Title').fill(title);
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  const dev = page.getByRole('article', { name: title }).getByRole('listitem', { name: 'DEV' });
  const url = dev.getByRole('link');
  await expect(url).toHaveAttribute('href', /^https:\/\/dev\.to\//);
  const [articleTab] = await Promise.all([context.waitForEvent('page'), url.click()]);
  await articleTab.waitForLoadState();
  expect(articleTab.url()).toContain('dev.to');
  await articleTab.close();
  await screenshot(page, 'links-article');
});
