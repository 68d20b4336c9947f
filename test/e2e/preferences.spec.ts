import type { Account } from '../../src-shared/api/accounts';
import type { CreatePostResponse } from '../../src-shared/api/posts';
import { expect, test } from './support/fixtures';
import { dayAfter } from './support/dates';
import { goTo, screenshot } from './support/page';
import { sandboxApi } from './support/web-host';
import type { Page } from '@playwright/test';

interface Styled {
  document: { documentElement: unknown; body: unknown; querySelector(s: string): unknown };
  getComputedStyle(el: unknown): { backgroundColor: string; paddingTop: string };
}
const bodyBackground = (page: Page) =>
  page.evaluate(() => {
    const g = globalThis as unknown as Styled;
    return g.getComputedStyle(g.document.body).backgroundColor;
  });
const cardPadding = (page: Page) =>
  page.evaluate(() => {
    const g = globalThis as unknown as Styled;
    return g.getComputedStyle(g.document.querySelector('.card__body')).paddingTop;
  });

async function choose(page: Page, group: string, option: string) {
  await goTo(page, 'Settings');
  const radio = page.getByRole('radiogroup', { name: group }).getByRole('radio', { name: option });
  await radio.click();
  await expect(radio).toHaveAttribute('aria-checked', 'true');
}
async function zone(page: Page, name: string) {
  await goTo(page, 'Settings');
  const field = page.getByLabel('Time zone');
  await field.selectOption(name);
  await expect(field).toHaveValue(name);
}

test('the Preferences change what every screen shows: zone, clock, week start, theme and density', async ({
  app: page,
  host,
}) => {
  const tag = `prefs-${Date.now().toString(36)}`;
  const { accounts } = await sandboxApi<{ accounts: Account[] }>(host, '/api/cli/accounts');
  const account = accounts[0] as Account;
  // 06:00 UTC: 15:00 in Tokyo (UTC+9, no daylight saving), 20:00 the day before in Honolulu (UTC−10).
  const day = dayAfter(3);
  await sandboxApi<CreatePostResponse>(host, '/api/cli/posts', {
    method: 'POST',
    body: JSON.stringify({
      caption: `Preferences ${tag}`,
      targets: [{ social_account_id: account.id, platform: account.platform }],
      scheduled_at: `${day}T06:00:00Z`,
    }),
  });
  const eventOn = async (date: string) => {
    await goTo(page, 'Calendar');
    const cell = page.locator(`.fc-daygrid-day[data-date="${date}"]`);
    if ((await cell.count()) === 0) await page.getByRole('button', { name: 'Next' }).click();
    const event = cell.locator('.cal-event').filter({ hasText: `Preferences ${tag}` });
    await expect(event).toHaveCount(1, { timeout: 15_000 });
    return event.locator('.cal-event__time');
  };

  try {
    await zone(page, 'Asia/Tokyo');
    await choose(page, 'Time format', '24-hour');
    await expect(await eventOn(day)).toHaveText('15:00');

    await choose(page, 'Time format', '12-hour');
    const twelve = await eventOn(day);
    await expect(twelve).toHaveText(/^3(:00)?\s?p/i);
    await screenshot(page, 'preferences-12h');

    // The zone moves the post to the day before.
    await zone(page, 'Pacific/Honolulu');
    await choose(page, 'Time format', '24-hour');
    await expect(await eventOn(dayAfter(2))).toHaveText('20:00');
    await expect(page.getByRole('heading', { level: 1, name: 'Calendar' })).toBeVisible();
    await expect(page.getByText('local time (Pacific/Honolulu)')).toBeVisible();

    // The week starts on Monday, or on Sunday.
    await goTo(page, 'Calendar');
    await expect(page.locator('.fc-col-header-cell').first()).toHaveClass(/fc-day-mon/);
    await choose(page, 'Week starts on', 'Sunday');
    await goTo(page, 'Calendar');
    await expect(page.locator('.fc-col-header-cell').first()).toHaveClass(/fc-day-sun/);

    // The theme overrides the computer's: dark on a light OS, light on a dark one, and the OS's for "System".
    await page.emulateMedia({ colorScheme: 'light' });
    await choose(page, 'Theme', 'Dark');
    await expect.poll(() => bodyBackground(page)).toBe('rgb(17, 17, 20)');
    await screenshot(page, 'preferences-dark');
    await page.emulateMedia({ colorScheme: 'dark' });
    await choose(page, 'Theme', 'Light');
    await expect.poll(() => bodyBackground(page)).toBe('rgb(247, 247, 248)');
    await choose(page, 'Theme', 'System');
    await expect.poll(() => bodyBackground(page)).toBe('rgb(17, 17, 20)');
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => bodyBackground(page)).toBe('rgb(247, 247, 248)');

    // Compact density: tighter spacing.
    const comfortable = parseFloat(await cardPadding(page));
    await choose(page, 'Density', 'Compact');
    await expect.poll(async () => parseFloat(await cardPadding(page))).toBeLessThan(comfortable);
    await screenshot(page, 'preferences-compact');

    // Kept across a reload, applied from the start.
    await page.reload();
    await goTo(page, 'Settings');
    await expect(page.getByRole('region', { name: 'Preferences' })).toBeVisible();
    await expect.poll(async () => parseFloat(await cardPadding(page))).toBeLessThan(comfortable);
  } finally {
    // The host is shared with the other flows: put the defaults back.
    await choose(page, 'Density', 'Comfortable');
    await choose(page, 'Theme', 'System');
    await choose(page, 'Week starts on', 'Monday');
    await choose(page, 'Time format', 'Automatic');
    await goTo(page, 'Settings');
    await page.getByLabel('Time zone').selectOption('');
    await expect(page.getByLabel('Time zone')).toHaveValue('');
  }
});
