import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { accountColour } from '../../src-renderer/src/app/account-colour';
import { expect, test } from './support/fixtures';
import { dayAfter } from './support/dates';
import { goTo, openConnected, screenshot } from './support/page';
import { startWebHost, type WebHost } from './support/web-host';
import { accountsOf, createPost, uploadPng } from './support/seed';

/** The browser's local day of an instant (the calendar shows the computer's zone by default). */
const localDay = (page: Page, iso: string) =>
  page.evaluate((at) => {
    const d = new Date(at);
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  }, iso);

async function showWeekOf(page: Page, day: string) {
  await goTo(page, 'Calendar');
  await page.getByRole('radiogroup', { name: 'Calendar view' }).getByRole('radio', { name: 'Week' }).click();
  const column = page.locator(`.fc-timegrid-col[data-date="${day}"]`);
  for (let i = 0; i < 2 && (await column.count()) === 0; i++)
    await page.getByRole('button', { name: 'Next' }).click();
  await expect(column).toHaveCount(1);
}

test('the week opens at its earliest post, not at 8 am', async ({ app: page, host }) => {
  const tag = `early-${Date.now().toString(36)}`;
  const [account] = await accountsOf(host);
  // Early in the morning of a day next week, in the browser's zone.
  const at = await page.evaluate((d) => {
    const t = new Date(`${d}T00:00:00`);
    t.setHours(1, 30, 0, 0);
    return t.toISOString();
  }, dayAfter(7));
  await createPost(host, `Dawn ${tag}`, [account!], at);
  await showWeekOf(page, await localDay(page, at));
  const event = page.locator('.fc-timegrid-event').filter({ hasText: `Dawn ${tag}` });
  await expect(event).toHaveCount(1, { timeout: 15_000 });
  await expect(event).toBeInViewport();
  await screenshot(page, 'calendar-week-early');
});

test('events are cards coloured by account, with a thumbnail and a hover preview, readable in both themes', async ({
  page,
}) => {
  // A host of its own: the shared one's other flows (a bulk import of 160 posts, say) fill the days ahead, and a
  // day's "+ more" would hide the very cards this looks at.
  const host = await startWebHost();
  try {
    await openConnected(page, await host.nextUrl());
    await cardsFlow(page, host);
  } finally {
    await host.stop();
  }
});

async function cardsFlow(page: Page, host: WebHost): Promise<void> {
  const tag = `cards-${Date.now().toString(36)}`;
  const accounts = await accountsOf(host);
  // Two accounts whose colours differ.
  const a = accounts[0]!;
  const b = accounts.find((x) => accountColour(x.id) !== accountColour(a.id))!;
  // A day the other flows leave empty, so no "+ more" hides the events.
  const day = dayAfter(11);
  await createPost(host, `Picture ${tag} with a longer caption to read`, [a], `${day}T12:00:00Z`, [
    await uploadPng(host),
  ]);
  await createPost(host, `Words ${tag}`, [b], `${day}T13:00:00Z`);

  await goTo(page, 'Calendar');
  const cell = page.locator(`.fc-daygrid-day[data-date="${await localDay(page, `${day}T12:00:00Z`)}"]`);
  for (let i = 0; i < 2 && (await cell.count()) === 0; i++)
    await page.getByRole('button', { name: 'Next' }).click();
  const picture = page.locator('.fc-event').filter({ hasText: `Picture ${tag}` });
  const words = page.locator('.fc-event').filter({ hasText: `Words ${tag}` });
  await expect(picture).toHaveCount(1, { timeout: 15_000 });

  // The thumbnail of its media; none without.
  await expect(picture.locator('img.post-thumb__img')).toHaveAttribute('src', /^data:image\/png;base64,/);
  await expect(words.locator('img')).toHaveCount(0);

  // A stable colour per account: the class the account id gives, and a different stripe per account.
  await expect(picture).toHaveClass(new RegExp(`account-colour-${accountColour(a.id)}\\b`));
  await expect(words).toHaveClass(new RegExp(`account-colour-${accountColour(b.id)}\\b`));
  const stripe = (l: typeof picture) =>
    l.evaluate(
      (el) =>
        (
          globalThis as unknown as { getComputedStyle(e: unknown): { borderLeftColor: string } }
        ).getComputedStyle(el).borderLeftColor,
    );
  expect(await stripe(picture)).not.toBe(await stripe(words));

  // Hovering shows the caption, the account and the time.
  await picture.hover();
  const preview = page.getByRole('tooltip');
  await expect(preview).toContainText(`Picture ${tag} with a longer caption to read`);
  await expect(preview).toContainText(a.name);
  await expect(preview).toContainText(/\d{1,2}:00/);
  await screenshot(page, 'calendar-preview');
  await page.mouse.move(5, 5);
  await expect(preview).toHaveCount(0);

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const result = await new AxeBuilder({ page })
      .include('.calendar__card')
      .withRules(['color-contrast'])
      .analyze();
    expect(result.violations.map((v) => v.nodes.map((n) => n.target))).toEqual([]);
    await screenshot(page, `calendar-cards-${scheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test('the month view keeps today’s row in sight, even in a small window', async ({ app: page }) => {
  await page.setViewportSize({ width: 800, height: 600 });
  await goTo(page, 'Calendar');
  await expect(page.locator('.fc-daygrid-day.fc-day-today')).toBeInViewport();
  await screenshot(page, 'calendar-month-800');
});
