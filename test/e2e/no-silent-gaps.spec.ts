import { expect, test } from '@playwright/test';
import { demoFixture } from '../../src-sandbox/demo-fixture';
import { goTo, openConnected, screenshot } from './support/page';
import { sandboxApi, startWebHost, type WebHost } from './support/web-host';

/**
 * Issue 15, item 3, as a person sees it on `postdesk web --sandbox`: Settings lists the next runs, and a scheduled
 * post whose time passes while the sandbox keeps it unpublished (its account's publish attempts fail) is marked
 * "not confirmed" in Posts once the grace (set to one minute here) is over.
 */

let host: WebHost;
test.beforeAll(async () => {
  host = await startWebHost();
});
test.afterAll(async () => {
  await host?.stop();
});

test('Settings shows the next runs across the automations of this computer', async ({ page }) => {
  await openConnected(page, await host.nextUrl());
  await goTo(page, 'Settings');
  const next = page.getByRole('list', { name: 'Next runs' });
  await expect(next.getByRole('listitem')).toHaveCount(10);
  await expect(next).toContainText('Hourly tip clip');
  await expect(next).toContainText('Hourly recap (auto mode)');
  // A fresh data folder has no history yet: nothing is claimed about last week.
  await expect(page.getByText('marks appear after a week')).toBeVisible();
  await next.scrollIntoViewIfNeeded();
  await screenshot(page, 'settings-next-runs');
});

test('a scheduled post the sandbox keeps unpublished past its time shows as not confirmed', async ({
  page,
}) => {
  // Every publish attempt to X fails (the sandbox retries 5 minutes later). The sandbox's clock is set two minutes
  // behind this computer's, which the watch reads: the post's time and the one-minute grace are behind it at
  // once, instead of waiting them out in real time (they were more than a minute of the suite's wall time).
  const fixture = { ...demoFixture(), now: new Date(Date.now() - 2 * 60_000).toISOString() };
  const owner = fixture.owners?.[0] as { accounts: Array<{ platform: string; publish_failures?: number }> };
  for (const a of owner.accounts) if (a.platform === 'x') a.publish_failures = 3;
  await sandboxApi(host, '/_sandbox/reset', { method: 'POST', body: JSON.stringify(fixture) });
  // Within the grace (the default 15 minutes) a post past its time is not marked yet.
  await host.cli(['config', 'set', 'deliveryConfirmMinutes', '15']);

  await openConnected(page, await host.nextUrl());
  const accounts = await sandboxApi<{ accounts: { id: string; platform: string }[] }>(
    host,
    '/api/cli/accounts',
  );
  const x = accounts.accounts.find((a) => a.platform === 'x');
  const { now } = await sandboxApi<{ now: string }>(host, '/_sandbox/clock');
  const due = new Date(Date.parse(now) + 10_000).toISOString();
  const created = await sandboxApi<{ social_posts: { id: string }[] }>(host, '/api/cli/posts', {
    method: 'POST',
    body: JSON.stringify({
      caption: 'Due in ten seconds, on a failing account',
      scheduled_at: due,
      targets: [{ social_account_id: x?.id, platform: 'x' }],
    }),
  });
  const id = created.social_posts[0]?.id;

  await goTo(page, 'Posts');
  const row = page.getByRole('article').filter({ hasText: 'Due in ten seconds, on a failing account' });
  await expect(row).toBeVisible();
  await expect(row.getByText('not confirmed')).toHaveCount(0);
  // Its time passes on the sandbox: the publish attempt fails and the sandbox keeps it waiting for a retry.
  await sandboxApi(host, '/_sandbox/clock', { method: 'POST', body: JSON.stringify({ advance_ms: 15_000 }) });
  // The grace is set to one minute, which is over by this computer's clock.
  await host.cli(['config', 'set', 'deliveryConfirmMinutes', '1']);
  await expect(async () => {
    await page.reload();
    await expect(row.getByText('not confirmed')).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 60_000, intervals: [1_000] });
  const held = await sandboxApi<{ posts: { id: string; status: string }[] }>(
    host,
    '/api/cli/posts?limit=100',
  );
  expect(held.posts.find((d) => d.id === id)?.status).toBe('retry_scheduled');
  await screenshot(page, 'posts-not-confirmed');
});
