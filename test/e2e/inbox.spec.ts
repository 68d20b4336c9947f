import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { goTo, openConnected, screenshot } from './support/page';
import { DAY_NAMES, addPostingTime, clearQueues } from './support/queue-grid';
import { sandboxApi, startWebHost, type WebHost } from './support/web-host';

/**
 * Issue 15, item 1: the agent inbox. A draft-mode automation runs (Run now, with the built-in caption card),
 * its draft waits in the inbox, and what a person does there is what the sandbox then holds.
 */

let host: WebHost;
test.beforeAll(async () => {
  host = await startWebHost();
});
test.afterAll(async () => {
  await host?.stop();
});

const TIP = 'Hourly tip clip';

interface Listed {
  readonly posts: ReadonlyArray<{
    id: string;
    post_id: string;
    status: string;
    scheduled_at: string | null;
    run_id?: string | null;
  }>;
}
const deliveries = async (status: string) =>
  (await sandboxApi<Listed>(host, `/api/cli/posts?status=${status}&limit=100`)).posts;

/** Runs the demo's draft-mode automation now and waits for it to finish; answers the service's run id. */
async function runTip(page: Page): Promise<string> {
  await goTo(page, 'Automations');
  const list = page.getByRole('list', { name: 'Automations list' });
  await list.getByRole('button', { name: `Run now: ${TIP}` }).click();
  const detail = page.getByRole('region', { name: 'Run detail' });
  await expect(detail.getByRole('status', { name: 'Run completed' })).toBeVisible({ timeout: 60_000 });
  const drafts = await deliveries('draft');
  const newest = drafts.find((d) => d.run_id);
  expect(newest?.run_id).toBeTruthy();
  return newest?.run_id as string;
}

test('the demo inbox shows its drafts as posts: who posts it, the caption, and the picture at a readable size', async ({
  page,
}) => {
  await openConnected(page, await host.nextUrl());
  await goTo(page, 'Inbox');
  const draft = page.getByRole('listitem', { name: /^Draft: Write on Monday, post all week/ });
  // Its accounts by name, the first one named in full.
  await expect(draft).toContainText(/Demo (X|Instagram) \(@postdesk[._]demo\) and 1 more account/);
  await expect(draft).toContainText('#contentplanning');
  // Named for people: its place, not the stored object's random name.
  const picture = draft.getByRole('img', { name: 'Media 1', exact: true });
  await expect(picture).toBeVisible();
  const size = await picture.evaluate((el) => {
    const img = el as unknown as { naturalWidth: number; getBoundingClientRect(): { width: number } };
    return { natural: img.naturalWidth, shown: img.getBoundingClientRect().width };
  });
  expect(size.natural).toBeGreaterThanOrEqual(320);
  expect(size.shown).toBeGreaterThanOrEqual(200);
  await screenshot(page, 'inbox-demo-drafts');
});

test('a draft-mode run puts its draft in the inbox; a hand-made draft never appears; rejecting deletes it', async ({
  page,
}) => {
  test.setTimeout(150_000);
  await openConnected(page, await host.nextUrl());
  // A draft made by hand, on the same service: it is not the inbox's.
  const accounts = await sandboxApi<{ accounts: { id: string; platform: string }[] }>(
    host,
    '/api/cli/accounts',
  );
  const x = accounts.accounts.find((a) => a.platform === 'x');
  await sandboxApi(host, '/api/cli/posts', {
    method: 'POST',
    body: JSON.stringify({
      caption: 'Written by hand, not by an agent',
      action: 'draft',
      targets: [{ social_account_id: x?.id, platform: 'x' }],
    }),
  });

  // The demo starts with drafts of earlier runs (made before this computer ran anything): counted beside this run's.
  const earlier = new Set((await deliveries('draft')).filter((d) => d.run_id).map((d) => d.post_id)).size;
  expect(earlier).toBeGreaterThan(0);
  const runId = await runTip(page);
  await goTo(page, 'Inbox');
  const group = page.getByRole('region', { name: TIP });
  const drafts = group.getByRole('list', { name: `Drafts of ${TIP}` }).getByRole('listitem');
  await expect(drafts).toHaveCount(1);
  await expect(page.getByText('Written by hand, not by an agent')).toHaveCount(0);
  // Its run's steps are one click away, in the Automations screen's run detail.
  await expect(drafts.first().getByRole('link', { name: 'Steps of this run' })).toHaveAttribute(
    'href',
    /#\/automations\?run=/,
  );
  // The navigation counts what waits.
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /Inbox/ }),
  ).toContainText(String(earlier + 1));
  await screenshot(page, 'inbox-draft');
  // With a draft on screen, no serious or critical accessibility violation.
  const axe = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  expect(
    axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
  ).toEqual([]);

  const post = (await deliveries('draft')).find((d) => d.run_id === runId);
  expect(post).toBeDefined();
  await drafts.first().getByRole('button', { name: 'Reject' }).click();
  await drafts.first().getByRole('button', { name: 'Yes, reject' }).click();
  await expect(group).toHaveCount(0);
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /Inbox/ }),
  ).toContainText(String(earlier));
  // The sandbox no longer holds it, in any status; the hand-made draft is untouched.
  const left = await sandboxApi<Listed>(host, '/api/cli/posts?limit=100');
  expect(left.posts.filter((d) => d.post_id === post?.post_id)).toEqual([]);
  const kept = await sandboxApi<{ posts: { caption: string; status: string }[] }>(
    host,
    '/api/cli/posts?status=draft',
  );
  expect(kept.posts.map((d) => d.caption)).toContain('Written by hand, not by an agent');
  await screenshot(page, 'inbox-rejected');
});

test('approving at a chosen time schedules the draft there; a run link shows only that run', async ({
  page,
}) => {
  test.setTimeout(150_000);
  await openConnected(page, await host.nextUrl());
  const first = await runTip(page);
  const second = await runTip(page);

  // What a notification's link opens: the inbox filtered to one run.
  await page.goto(`${new URL(page.url()).origin}/#/inbox?run=${first}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Inbox' })).toBeVisible();
  await expect(page.getByText('Showing the drafts of one run.')).toBeVisible();
  const drafts = page.getByRole('list', { name: `Drafts of ${TIP}` }).getByRole('listitem');
  await expect(drafts).toHaveCount(1);
  await page.getByRole('link', { name: 'Show every draft' }).click();
  await expect(drafts).toHaveCount(2);

  // Both selected, approved for tomorrow at 09:30 local time.
  const tomorrow = new Date();
  tomorrow.setDate(tomorrow.getDate() + 1);
  tomorrow.setHours(9, 30, 0, 0);
  const pad = (n: number) => String(n).padStart(2, '0');
  const local = `${tomorrow.getFullYear()}-${pad(tomorrow.getMonth() + 1)}-${pad(tomorrow.getDate())}T09:30`;
  await page.getByLabel(/Time to publish the selected drafts/).fill(local);
  await page.getByRole('checkbox', { name: 'Select all' }).check();
  await page.getByRole('button', { name: 'Schedule selected' }).click();
  await expect(page.getByText('No drafts waiting')).toBeVisible();
  await screenshot(page, 'inbox-approved');

  const scheduled = (await deliveries('scheduled')).filter((d) => d.run_id === first || d.run_id === second);
  expect(scheduled.length).toBeGreaterThanOrEqual(2);
  for (const d of scheduled) expect(Date.parse(d.scheduled_at ?? '')).toBe(tomorrow.getTime());
  expect((await deliveries('draft')).filter((d) => d.run_id)).toEqual([]);
});

test('approving into the queue schedules the draft at its accounts’ next free slot', async ({ page }) => {
  test.setTimeout(150_000);
  await openConnected(page, await host.nextUrl());
  const { accounts } = await sandboxApi<{ accounts: { id: string; platform: string; name: string }[] }>(
    host,
    '/api/cli/accounts',
  );
  // The tip automation posts to Instagram and X: both get the same posting time, 09:00 UTC every day.
  await goTo(page, 'Queue');
  const names = ['instagram', 'x'].map((p) => accounts.find((a) => a.platform === p)?.name as string);
  await clearQueues(
    page,
    accounts.filter((a) => a.platform === 'instagram' || a.platform === 'x').map((a) => a.id),
  );
  await addPostingTime(page, { days: DAY_NAMES, time: '09:00', zone: 'UTC', accounts: names });
  const ids = new Set(
    accounts.filter((a) => a.platform === 'instagram' || a.platform === 'x').map((a) => a.id),
  );
  const held = new Set(
    (
      await sandboxApi<{ posts: { social_account_id: string; scheduled_at: string | null }[] }>(
        host,
        '/api/cli/posts?status=scheduled&limit=100',
      )
    ).posts
      .filter((d) => ids.has(d.social_account_id) && d.scheduled_at)
      .map((d) => Date.parse(d.scheduled_at as string)),
  );

  const runId = await runTip(page);
  await page.goto(`${new URL(page.url()).origin}/#/inbox?run=${runId}`);
  const draft = page.getByRole('list', { name: `Drafts of ${TIP}` }).getByRole('listitem');
  await expect(draft).toHaveCount(1);
  await draft.getByRole('button', { name: 'Approve into queue' }).click();
  await expect(page.getByText('1 draft added to the posting queue.')).toBeVisible();

  // The next 09:00 UTC no other post of these accounts holds.
  const slot = new Date();
  slot.setUTCHours(9, 0, 0, 0);
  if (slot.getTime() <= Date.now()) slot.setUTCDate(slot.getUTCDate() + 1);
  while (held.has(slot.getTime())) slot.setUTCDate(slot.getUTCDate() + 1);
  const mine = (await deliveries('scheduled')).filter((d) => d.run_id === runId);
  expect(mine).toHaveLength(2);
  for (const d of mine) expect(d.scheduled_at).toBe(slot.toISOString());
  await screenshot(page, 'inbox-queued');
});
