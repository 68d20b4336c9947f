import type { Locator, Page } from '@playwright/test';
import type { AccountQueue } from '../../../src-shared/queue';
import { expect } from './fixtures';
import { pickTime } from './time-picker';

/** The English names the day checkboxes carry (the browser's language is English). */
export const DAY_NAMES = [
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
  'Sunday',
] as const;

type Bridge = { postdesk: { queue: { schedules(): Promise<unknown>; set(i: unknown): Promise<unknown> } } };

/** "+ Add posting time": these days (English names), at a time read in a zone, for these accounts (by name). */
export async function addPostingTime(
  page: Page,
  o: { days: readonly string[]; time: string; zone: string; accounts: readonly string[] },
): Promise<void> {
  await page.getByRole('button', { name: '+ Add posting time' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add posting time' });
  const days = dialog.getByRole('group', { name: 'Days' });
  for (const d of DAY_NAMES) {
    const box = days.getByRole('checkbox', { name: d });
    if (o.days.includes(d)) await box.check();
    else await box.uncheck();
  }
  await pickTime(dialog, 'Time', o.time);
  const accounts = dialog.getByRole('group', { name: 'Accounts' });
  for (const box of await accounts.getByRole('checkbox').all()) await box.uncheck();
  for (const name of o.accounts) await accounts.getByRole('checkbox', { name, exact: true }).check();
  await dialog.getByRole('combobox', { name: 'Time zone' }).fill(o.zone);
  await dialog.getByRole('button', { name: 'Add posting time' }).click();
  await expect(dialog).toBeHidden();
}

/** Every account's posting times as the host's store holds them, read through the page's bridge. */
export const storedQueues = (page: Page): Promise<AccountQueue[]> =>
  page.evaluate(async () => {
    const r = (await (globalThis as unknown as Bridge).postdesk.queue.schedules()) as {
      ok: boolean;
      value: { queues: AccountQueue[] };
    };
    return r.value.queues;
  });

/** Clears accounts' posting times (other flows on this shared host set some), through the page's bridge. */
export async function clearQueues(page: Page, accountIds: readonly string[]): Promise<void> {
  for (const id of accountIds)
    await page.evaluate(
      (account_id) =>
        (globalThis as unknown as Bridge).postdesk.queue.set({
          account_id,
          schedule: { timezone: 'UTC', slots: [] },
        }),
      id,
    );
}

/** The slot of an instant in the grid (ISO), on whichever week shows it: "Next week" until it is there. */
export async function showSlot(page: Page, at: string): Promise<Locator> {
  const slot = page.locator(`[data-at="${at}"]`);
  const weeks = page.getByRole('navigation', { name: 'Weeks' });
  // From this week on; again if the grid was still loading a change while it looked.
  await expect(async () => {
    const thisWeek = weeks.getByRole('button', { name: 'This week' });
    if (await thisWeek.isEnabled()) await thisWeek.click();
    for (let i = 0; i < 6 && (await slot.count()) === 0; i += 1) {
      const next = weeks.getByRole('button', { name: 'Next week' });
      if (!(await next.isEnabled())) break;
      await next.click();
    }
    await expect(slot).toHaveCount(1, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  return slot;
}

/** Elements of the page that scroll inside it (the main column itself is the page's scroller; the sidebar is the shell). */
export const innerScrollers = (page: Page): Promise<string[]> =>
  page.evaluate(() => {
    const g = globalThis as unknown as {
      document: {
        querySelectorAll(s: string): ArrayLike<Record<string, unknown> & { matches(s: string): boolean }>;
      };
      getComputedStyle(el: unknown): { overflowX: string; overflowY: string };
    };
    const out: string[] = [];
    for (const el of Array.from(g.document.querySelectorAll('.main *'))) {
      if (el.matches('dialog, dialog *')) continue;
      const s = g.getComputedStyle(el);
      const e = el as unknown as {
        scrollHeight: number;
        clientHeight: number;
        scrollWidth: number;
        clientWidth: number;
        className: string;
        tagName: string;
      };
      const y = /auto|scroll/.test(s.overflowY) && e.scrollHeight > e.clientHeight + 1;
      const x = /auto|scroll/.test(s.overflowX) && e.scrollWidth > e.clientWidth + 1;
      if (x || y) out.push(`${e.tagName.toLowerCase()}.${String(e.className)}`);
    }
    const main = g.document.querySelectorAll('.main')[0] as unknown as
      { scrollWidth: number; clientWidth: number } | undefined;
    if (main && main.scrollWidth > main.clientWidth + 1) out.push('the main column, sideways');
    return out;
  });
