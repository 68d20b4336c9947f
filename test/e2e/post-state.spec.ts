import type { Account } from '../../src-shared/api/accounts';
import { PLATFORMS } from '../../src-shared/api/common';
import { DELIVERY_STATUSES, type Delivery } from '../../src-shared/api/posts';
import { expect, test } from './support/fixtures';
import { dayAfter } from './support/dates';
import { goTo, screenshot } from './support/page';
import { DAY_NAMES, addPostingTime, clearQueues, showSlot } from './support/queue-grid';
import { sandboxApi, type WebHost } from './support/web-host';

/**
 * Issue 30: what the screen says is what happened. The waiting notice leaves within a second of a send settling,
 * with no reload; a failed delivery is retried from its row and published once; a post to two accounts added to the
 * queue stays one post at one time, and moving it moves both deliveries. Each checked against the sandbox.
 */

const post = (host: WebHost, path: string, body: unknown, method = 'POST') =>
  sandboxApi(host, path, { method, body: JSON.stringify(body) });
/**
 * Every delivery on the service: each status's and platform's newest 100. One list of the newest 100 missed new
 * posts once other tests on the same host had made more than 100 and moved the sandbox's clock.
 */
const all = async (host: WebHost): Promise<Delivery[]> =>
  (
    await Promise.all(
      DELIVERY_STATUSES.flatMap((status) =>
        PLATFORMS.map((platform) =>
          sandboxApi<{ posts: Delivery[] }>(
            host,
            `/api/cli/posts?status=${status}&platform=${platform}&limit=100`,
          ),
        ),
      ),
    )
  ).flatMap((page) => page.posts);

test.afterEach(async ({ host }) => {
  await post(host, '/_sandbox/faults', {});
});

test('the waiting notice shows a send while it is on its way and leaves within a second of it settling', async ({
  app: page,
  host,
}) => {
  const { accounts } = await sandboxApi<{ accounts: Account[] }>(host, '/api/cli/accounts');
  const x = accounts.find((a) => a.platform === 'x') as Account;
  const tag = Date.now().toString(36);
  const notice = page.getByRole('region', { name: /waiting to be sent/ });
  await page.evaluate(() => ((globalThis as unknown as { pdMark?: number }).pdMark = 1));
  // Slow answers: the send is seen waiting, then seen leaving.
  await post(host, '/_sandbox/faults', { latency_ms: 1200, paths: ['/api/cli/posts'] });

  // Schedule.
  await goTo(page, 'Compose');
  await page.getByLabel('Caption').fill(`Notice schedule ${tag}`);
  await page.getByRole('checkbox', { name: x.name }).check();
  await page.getByRole('radio', { name: 'Schedule' }).click();
  await page.getByLabel(/Date and time/).fill(`${dayAfter(5)}T10:00`);
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(notice).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Posts' })).toBeVisible({ timeout: 20_000 });
  await expect(notice).toBeHidden({ timeout: 1_000 });
  expect(
    (await all(host)).filter((d) => d.caption === `Notice schedule ${tag}`).map((d) => d.status),
  ).toEqual(['scheduled']);

  // Publish now, from the post's row.
  await page.getByLabel('Search').fill(`Notice schedule ${tag}`);
  const row = page.getByRole('article').filter({ hasText: `Notice schedule ${tag}` });
  await row.getByRole('button', { name: /^Actions for post: / }).click();
  await page.getByRole('menu').getByRole('menuitem', { name: 'Publish now' }).click();
  await row.getByRole('button', { name: 'Yes, publish now' }).click();
  await expect(notice).toBeVisible();
  await expect(page.getByText('Published now.')).toBeVisible({ timeout: 20_000 });
  await expect(notice).toBeHidden({ timeout: 1_000 });
  // The list shows what happened without a reload: the post is published.
  await expect(
    page
      .getByRole('article')
      .filter({ hasText: `Notice schedule ${tag}` })
      .first(),
  ).toContainText('posted');

  // Add to queue (X's slots set on the Queue screen first).
  await goTo(page, 'Queue');
  await clearQueues(page, [x.id]);
  await addPostingTime(page, { days: DAY_NAMES, time: '11:00', zone: 'UTC', accounts: [x.name] });
  await goTo(page, 'Compose');
  await page.getByLabel('Caption').fill(`Notice queue ${tag}`);
  await page.getByRole('checkbox', { name: x.name }).check();
  await page.getByRole('button', { name: 'Add to queue' }).click();
  // Placing it reads the service first (slowly here), then the create waits in the notice.
  await expect(notice).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('heading', { level: 1, name: 'Queue' })).toBeVisible({ timeout: 20_000 });
  await expect(notice).toBeHidden({ timeout: 1_000 });
  await screenshot(page, 'notice-settled');
  // No reload happened: the page is the one opened at the start, its mark still set.
  expect(await page.evaluate(() => (globalThis as unknown as { pdMark?: number }).pdMark)).toBe(1);
});

test('a failed delivery is retried from its row and published once; the failure stays in its history', async ({
  app: page,
  host,
}) => {
  const { accounts } = await sandboxApi<{ accounts: Account[] }>(host, '/api/cli/accounts');
  const li = accounts.find((a) => a.platform === 'linkedin') as Account;
  const tag = Date.now().toString(36);
  const caption = `Retry me ${tag}`;
  // LinkedIn fails every attempt: the publish fails three times, then the account is mended.
  await post(host, `/_sandbox/accounts/${li.id}`, { publish_failures: 3 }, 'PATCH');
  await post(host, '/api/cli/posts', {
    caption,
    targets: [{ platform: 'linkedin', social_account_id: li.id }],
  });
  await post(host, '/_sandbox/clock', { advance_ms: 11 * 60_000 });
  const failed = (await all(host)).filter((d) => d.caption === caption);
  expect(failed.map((d) => d.status)).toEqual(['failed']);
  await post(host, `/_sandbox/accounts/${li.id}`, { publish_failures: 0 }, 'PATCH');

  await goTo(page, 'Posts');
  await page
    .getByRole('button', { name: /^Refresh/ })
    .first()
    .click();
  await page.getByLabel('Search').fill(caption);
  const row = page.getByRole('article').filter({ hasText: caption });
  await expect(row).toContainText('failed');
  await row.getByRole('button', { name: /^1 delivery: / }).click();
  const detail = page.getByRole('region', { name: new RegExp(`^Deliveries of ${caption}`) });
  await detail.getByRole('button', { name: `Retry the ${li.name} delivery` }).click();
  await detail.getByRole('button', { name: 'Retry now' }).click();
  await expect(page.getByText(`Retried on ${li.name}.`)).toBeVisible({ timeout: 20_000 });

  const after = (await all(host)).filter((d) => d.caption === caption);
  expect(after.map((d) => d.status)).toEqual(['posted']);
  expect(after[0]!.id).not.toBe(failed[0]!.id);
  // The screen follows without a reload: the failed delivery left, the new one is posted and says why it exists.
  await expect(page.getByRole('article').filter({ hasText: caption }).first()).toContainText('posted');
  await page
    .getByRole('article')
    .filter({ hasText: caption })
    .first()
    .getByRole('button', { name: /^1 delivery: / })
    .click();
  await expect(page.getByRole('region', { name: new RegExp(`^Deliveries of ${caption}`) })).toContainText(
    'Retried after it failed',
  );
  await screenshot(page, 'retried');
});

test('a post to two accounts added to the queue stays one post at one time, and moving it moves both', async ({
  app: page,
  host,
}) => {
  const { accounts } = await sandboxApi<{ accounts: Account[] }>(host, '/api/cli/accounts');
  // Two platforms that take a caption alone (Instagram and TikTok need media: src-shared/platform-rules.ts).
  const pair = ['linkedin', 'x'].map((p) => accounts.find((a) => a.platform === p) as Account);
  const tag = Date.now().toString(36);
  await goTo(page, 'Queue');
  await clearQueues(
    page,
    pair.map((a) => a.id),
  );
  for (const time of ['07:00', '19:00'])
    await addPostingTime(page, { days: DAY_NAMES, time, zone: 'UTC', accounts: pair.map((a) => a.name) });
  const before = await sandboxApi<{ posts: number }>(host, '/_sandbox/state');

  await goTo(page, 'Compose');
  await page.getByLabel('Caption').fill(`Together ${tag}`);
  for (const a of pair) await page.getByRole('checkbox', { name: a.name }).check();
  await page.getByRole('button', { name: 'Add to queue' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Queue' })).toBeVisible({ timeout: 20_000 });
  const mine = (await all(host)).filter((d) => d.caption === `Together ${tag}`);
  expect(mine).toHaveLength(2);
  expect(new Set(mine.map((d) => d.post_id)).size).toBe(1);
  expect(new Set(mine.map((d) => d.scheduled_at)).size).toBe(1);
  expect((await sandboxApi<{ posts: number }>(host, '/_sandbox/state')).posts - before.posts).toBe(1);

  // Moved from its one card in the grid (the keyboard's Move… menu): both deliveries move, as the menu says.
  await showSlot(page, new Date(mine[0]!.scheduled_at as string).toISOString());
  await page
    .getByRole('article', { name: `Queued post: Together ${tag}` })
    .getByRole('button', { name: /^Move…/ })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Move the post' });
  await dialog.getByRole('button', { name: 'Move to this slot' }).click();
  await expect(dialog).toBeHidden();
  await expect
    .poll(
      async () =>
        new Set((await all(host)).filter((d) => d.caption === `Together ${tag}`).map((d) => d.scheduled_at))
          .size,
    )
    .toBe(1);
  const moved = (await all(host)).filter((d) => d.caption === `Together ${tag}`);
  expect(moved[0]!.scheduled_at).not.toBe(mine[0]!.scheduled_at);
  expect(moved).toHaveLength(2);
});
