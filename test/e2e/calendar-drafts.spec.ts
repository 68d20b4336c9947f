import type { Account } from '../../src-shared/api/accounts';
import type { CreatePostResponse, Delivery } from '../../src-shared/api/posts';
import { expect, test } from './support/fixtures';
import { dayAfter } from './support/dates';
import { goTo, screenshot } from './support/page';
import { sandboxApi, type WebHost } from './support/web-host';

async function create(host: WebHost, caption: string, accounts: readonly Account[], scheduledAt?: string) {
  return sandboxApi<CreatePostResponse>(host, '/api/cli/posts', {
    method: 'POST',
    body: JSON.stringify({
      caption,
      targets: accounts.map((a) => ({ social_account_id: a.id, platform: a.platform })),
      ...(scheduledAt ? { scheduled_at: scheduledAt } : { action: 'draft' }),
    }),
  });
}

test('a draft dragged from the side list onto a day is scheduled there; a post to 3 accounts is one event', async ({
  app: page,
  host,
}) => {
  const tag = `cal-${Date.now().toString(36)}`;
  const { accounts } = await sandboxApi<{ accounts: Account[] }>(host, '/api/cli/accounts');
  const three = accounts.filter((a) => a.platform !== 'youtube').slice(0, 3);
  const draft = await create(host, `Plan me ${tag}`, three.slice(0, 2));
  await create(host, `Together ${tag}`, three, `${dayAfter(1)}T15:00:00Z`);

  await goTo(page, 'Calendar');
  await page.getByRole('button', { name: /Refresh/ }).click();
  const aside = page.getByRole('complementary', { name: 'Unscheduled drafts' });
  const item = aside.getByRole('listitem').filter({ hasText: `Plan me ${tag}` });
  await expect(item).toBeVisible({ timeout: 15_000 });
  await expect(item.getByTestId('target-chip')).toHaveCount(2);

  // One event for the post to three accounts, naming all three.
  const together = page.locator('.cal-event').filter({ hasText: `Together ${tag}` });
  await expect(together).toHaveCount(1);
  await expect(together.locator('.platform-mark')).toHaveCount(3);

  // Drag the draft onto the day after tomorrow (month view: scheduled at 09:00 local time that day).
  const day = dayAfter(2);
  const cell = page.locator(`.fc-daygrid-day[data-date="${day}"]`);
  if ((await cell.count()) === 0) await page.getByRole('button', { name: 'Next' }).click();
  // The page scrolls (the calendar is laid out whole): both ends in view, measured once the layout has settled.
  await cell.scrollIntoViewIfNeeded();
  await item.scrollIntoViewIfNeeded();
  await expect(cell).toBeInViewport();
  await expect(item).toBeInViewport();
  const from = (await item.boundingBox())!;
  const to = (await cell.boundingBox())!;
  await page.mouse.move(from.x + 20, from.y + 10);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++) {
    await page.mouse.move(
      from.x + 20 + ((to.x + to.width / 2 - from.x - 20) * i) / 12,
      from.y + 10 + ((to.y + to.height / 2 - from.y - 10) * i) / 12,
    );
  }
  await page.mouse.up();
  await expect(page.getByText(/^Scheduled for /)).toBeVisible();
  await expect(item).toHaveCount(0);

  const expected = await page.evaluate((d) => {
    const [y, m, dd] = d.split('-').map(Number);
    return new Date(y!, m! - 1, dd, 9, 0, 0, 0).toISOString();
  }, day);
  const { posts } = await sandboxApi<{ posts: Delivery[] }>(
    host,
    '/api/cli/posts?status=scheduled&limit=100',
  );
  const mine = posts.filter((d) => d.post_id === draft.post.id);
  expect(mine).toHaveLength(2);
  for (const d of mine) expect(Date.parse(d.scheduled_at ?? '')).toBe(Date.parse(expected));
  await expect(page.locator('.cal-event').filter({ hasText: `Plan me ${tag}` })).toHaveCount(1);
  await screenshot(page, 'calendar-draft-dropped');

  // The week view: events read as time, accounts and a two-line caption.
  await page.getByRole('radio', { name: 'Week' }).click();
  await screenshot(page, 'calendar-week-readable');
});
