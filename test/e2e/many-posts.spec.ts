import { createHash } from 'node:crypto';
import type { Account } from '../../src-shared/api/accounts';
import type { CreatePostResponse, Delivery } from '../../src-shared/api/posts';
import { expect, test } from './support/fixtures';
import { dayAfter } from './support/dates';
import { goTo, screenshot } from './support/page';
import { sandboxApi, type WebHost } from './support/web-host';

const DAY = 86_400_000;
// The smallest PNG: 1×1, transparent.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** A PNG uploaded to the sandbox as the contract says (reserve, PUT, complete); its asset id. */
async function uploadPng(host: WebHost): Promise<string> {
  const hash = (alg: string) => createHash(alg).update(PNG).digest('hex');
  const r = await sandboxApi<{
    asset_id: string;
    upload_url: string;
    upload_headers: Record<string, string>;
  }>(host, '/api/cli/media/uploads', {
    method: 'POST',
    body: JSON.stringify({
      content_type: 'image/png',
      content_length: PNG.length,
      content_sha256: hash('sha256'),
      content_md5: hash('md5'),
    }),
  });
  const put = await fetch(r.upload_url, { method: 'PUT', headers: r.upload_headers, body: PNG });
  expect(put.ok).toBe(true);
  await sandboxApi(host, '/api/cli/media/uploads', {
    method: 'PATCH',
    body: JSON.stringify({ asset_id: r.asset_id }),
  });
  return r.asset_id;
}

async function accountsOf(host: WebHost): Promise<Account[]> {
  return (await sandboxApi<{ accounts: Account[] }>(host, '/api/cli/accounts')).accounts;
}

async function createPost(
  host: WebHost,
  caption: string,
  targets: readonly Account[],
  scheduledAt: string,
  media: readonly string[] = [],
): Promise<CreatePostResponse> {
  return sandboxApi<CreatePostResponse>(host, '/api/cli/posts', {
    method: 'POST',
    body: JSON.stringify({
      caption,
      targets: targets.map((a) => ({ social_account_id: a.id, platform: a.platform })),
      scheduled_at: scheduledAt,
      ...(media.length ? { media: media.map((asset_id) => ({ asset_id })) } : {}),
    }),
  });
}

/** How many requests of this method and path reached the sandbox since the log was cleared. */
async function requestsTo(host: WebHost, key: string): Promise<number> {
  const { requests } = await sandboxApi<{ requests: Record<string, number> }>(host, '/_sandbox/requests');
  return requests[key] ?? 0;
}

async function scheduledOf(host: WebHost, postId: string): Promise<string | null> {
  const { posts } = await sandboxApi<{ posts: Delivery[] }>(
    host,
    '/api/cli/posts?status=scheduled&limit=100',
  );
  return posts.find((d) => d.post_id === postId)?.scheduled_at ?? null;
}

test('a post to 3 accounts is one item with 3 chips, and expands into its deliveries', async ({
  app: page,
  host,
}) => {
  const tag = `three-${Date.now().toString(36)}`;
  const accounts = (await accountsOf(host)).filter((a) => a.platform !== 'youtube').slice(0, 3);
  expect(accounts).toHaveLength(3);
  await createPost(host, `Everywhere ${tag}`, accounts, `${dayAfter(3)}T10:00:00Z`, [await uploadPng(host)]);

  await goTo(page, 'Posts');
  await page.getByLabel('Search').fill(tag);
  const rows = page.getByRole('article').filter({ hasText: tag });
  await expect(rows).toHaveCount(1);
  await expect(rows.getByTestId('target-chip')).toHaveCount(3);
  // Its picture, fetched by the host (the page may load no remote image) and shown as a data URL.
  await expect(rows.locator('img.post-thumb__img')).toHaveAttribute('src', /^data:image\/png;base64,/);
  for (const a of accounts)
    await expect(rows.getByTestId('target-chip').filter({ hasText: a.name })).toContainText('scheduled');
  await screenshot(page, 'posts-grouped-three-chips');

  await rows.getByRole('button', { name: /^3 deliveries: Everywhere/ }).click();
  const detail = page.getByRole('region', { name: /^Deliveries of Everywhere/ });
  await expect(detail.getByRole('listitem')).toHaveCount(3);
  // The whole post's actions are in its "…" menu (the expanded card: the duplicate below is not expanded).
  const expandedCard = rows.filter({ has: detail });
  const menu = async (item: string) => {
    await expandedCard.getByRole('button', { name: /^Actions for post: Everywhere/ }).click();
    await page.getByRole('menu').getByRole('menuitem', { name: item }).click();
  };
  await expect(detail).toContainText('Whole post');
  await expect(detail.getByRole('button', { name: /^Delete the / })).toHaveCount(3);
  await screenshot(page, 'posts-grouped-expanded');

  // Duplicate: a new draft with the same caption, media and three accounts.
  await menu('Duplicate as draft');
  await expect(page.getByText('Duplicated as a new draft.')).toBeVisible();
  const drafts = (
    await sandboxApi<{ posts: Delivery[] }>(host, '/api/cli/posts?status=draft&limit=100')
  ).posts.filter((d) => d.caption === `Everywhere ${tag}`);
  expect(drafts).toHaveLength(3);
  expect(new Set(drafts.map((d) => d.social_account_id))).toEqual(new Set(accounts.map((a) => a.id)));
  expect(drafts.every((d) => d.media?.length === 1)).toBe(true);

  // Publish now: published once as a new post, and only then the scheduled original removed.
  const original = (
    await sandboxApi<{ posts: Delivery[] }>(host, '/api/cli/posts?status=scheduled&limit=100')
  ).posts
    .filter((d) => d.caption === `Everywhere ${tag}`)
    .map((d) => d.id);
  expect(original).toHaveLength(3);
  await menu('Publish now');
  await expandedCard.getByRole('button', { name: 'Yes, publish now' }).click();
  await expect(page.getByText('Published now.')).toBeVisible({ timeout: 20_000 });
  const after = (await sandboxApi<{ posts: Delivery[] }>(host, '/api/cli/posts?limit=100')).posts.filter(
    (d) => d.caption === `Everywhere ${tag}`,
  );
  expect(after.filter((d) => original.includes(d.id))).toEqual([]);
  const published = after.filter((d) => d.status !== 'draft');
  expect(published).toHaveLength(3);
  expect(published.every((d) => d.status !== 'scheduled')).toBe(true);
});

test('30 selected posts move a day in one bulk request; the one that fails is shown and retried alone', async ({
  app: page,
  host,
}) => {
  test.setTimeout(90_000);
  const tag = `many-${Date.now().toString(36)}`;
  const x = (await accountsOf(host)).find((a) => a.platform === 'x')!;
  const base = Date.parse(`${dayAfter(5)}T08:00:00Z`);
  const created: { id: string; at: string }[] = [];
  for (let i = 0; i < 30; i++) {
    const at = new Date(base + i * 3_600_000).toISOString();
    const res = await createPost(host, `Batch ${i} ${tag}`, [x], at);
    created.push({ id: res.post.id, at });
  }

  await goTo(page, 'Posts');
  await page.getByRole('button', { name: 'Refresh' }).click();
  await page.getByLabel('Search').fill(tag);
  // Click one, shift-click another: the range between them (newest first: posts 29 down to 25).
  await page.getByRole('checkbox', { name: `Select post: Batch 29 ${tag}` }).click({ timeout: 20_000 });
  await page.getByRole('checkbox', { name: `Select post: Batch 25 ${tag}` }).click({ modifiers: ['Shift'] });
  await expect(page.getByRole('region', { name: 'Selected posts' })).toContainText('5 posts selected');
  await expect(page.getByRole('checkbox', { name: `Select post: Batch 27 ${tag}` })).toBeChecked();
  // Only the rows in view are in the page (the list is virtual): the search's count says all 30 are there.
  await page.getByRole('button', { name: 'Select all 30 matching' }).click();
  await expect(page.getByRole('region', { name: 'Selected posts' })).toContainText('30 posts selected');

  // One post made invalid behind the app's back: a draft has no schedule a bulk update can move.
  const broken = created[7]!;
  await sandboxApi(host, '/api/cli/posts', {
    method: 'PATCH',
    body: JSON.stringify({ id: broken.id, status: 'draft' }),
  });
  await sandboxApi(host, '/_sandbox/requests', { method: 'DELETE' });

  const bar = page.getByRole('region', { name: 'Selected posts' });
  await bar.getByLabel('Move by').fill('1');
  await bar.getByLabel('Unit').selectOption('days');
  await bar.getByRole('button', { name: 'Move', exact: true }).click();

  const results = page.getByTestId('many-results');
  await expect(results).toContainText('Moved 29 of 30 posts (1 request to the service)');
  // One line until opened: which posts were not changed, and why.
  await results.getByText('1 post was not changed, or not confirmed').click();
  await expect(results.getByRole('list', { name: 'Not changed' }).getByRole('listitem')).toHaveCount(1);
  await expect(results).toContainText(`Batch 7 ${tag}`);
  await expect(results).toContainText('It is a draft: schedule it first');
  await screenshot(page, 'posts-many-one-failed');
  // The service saw exactly one bulk update for the 30, and each moved post is a day later.
  expect(await requestsTo(host, 'PATCH /api/cli/posts/bulk')).toBe(1);
  for (const p of [created[0]!, created[29]!]) {
    expect(Date.parse((await scheduledOf(host, p.id)) ?? '')).toBe(Date.parse(p.at) + DAY);
  }

  // Put right, then "Retry failed" sends that one alone, at the time planned at first.
  await sandboxApi(host, '/api/cli/posts', {
    method: 'PATCH',
    body: JSON.stringify({ id: broken.id, status: 'scheduled', scheduled_at: `${dayAfter(20)}T08:00:00Z` }),
  });
  await results.getByRole('button', { name: 'Retry failed (1)' }).click();
  await expect(results).toContainText('Moved 30 of 30 posts (2 requests to the service)');
  await expect(results.getByRole('button', { name: /Retry failed/ })).toHaveCount(0);
  expect(await requestsTo(host, 'PATCH /api/cli/posts/bulk')).toBe(2);
  expect(Date.parse((await scheduledOf(host, broken.id)) ?? '')).toBe(Date.parse(broken.at) + DAY);
  // The others were not moved again.
  expect(Date.parse((await scheduledOf(host, created[0]!.id)) ?? '')).toBe(Date.parse(created[0]!.at) + DAY);
  await screenshot(page, 'posts-many-retried');
});

test('selected posts go into the next free queue slots, in their order, in one bulk request', async ({
  app: page,
  host,
}) => {
  const tag = `queued-${Date.now().toString(36)}`;
  const tiktok = (await accountsOf(host)).find((a) => a.platform === 'tiktok')!;
  const created: string[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await createPost(host, `Queue me ${i} ${tag}`, [tiktok], `${dayAfter(40 + i)}T12:00:00Z`);
    created.push(res.post.id);
  }
  // Every day at 07:15 UTC: the next free ones are the posts' new times.
  const set = (slots: { weekday: number; time: string }[]) =>
    page.evaluate(
      ([account, s]) =>
        (
          globalThis as unknown as { postdesk: { queue: { set(i: unknown): Promise<unknown> } } }
        ).postdesk.queue.set({
          account_id: account,
          schedule: { timezone: 'UTC', slots: s },
        }),
      [tiktok.id, slots] as const,
    );
  await set([1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, time: '07:15' })));
  try {
    await goTo(page, 'Posts');
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByLabel('Search').fill(tag);
    await page.getByRole('button', { name: 'Select all 3 matching' }).click({ timeout: 20_000 });
    await sandboxApi(host, '/_sandbox/requests', { method: 'DELETE' });
    await page
      .getByRole('region', { name: 'Selected posts' })
      .getByRole('button', { name: 'Into queue slots' })
      .click();
    await expect(page.getByTestId('many-results')).toContainText(
      'Put in queue slots 3 of 3 posts (1 request',
    );
    expect(await requestsTo(host, 'PATCH /api/cli/posts/bulk')).toBe(1);
    const times = await Promise.all(created.map((id) => scheduledOf(host, id)));
    for (const t of times) expect(t).toMatch(/T07:15:00(\.000)?Z$/);
    // In their order before (post 0 was earliest), on different days, all ahead.
    const ms = times.map((t) => Date.parse(t ?? ''));
    expect([...ms].sort((a, b) => a - b)).toEqual(ms);
    expect(new Set(ms).size).toBe(3);
    expect(ms[0]).toBeGreaterThan(Date.now());
    await screenshot(page, 'posts-many-queue');
  } finally {
    await set([]);
  }
});
