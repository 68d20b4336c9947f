import type { Locator } from '@playwright/test';

/** Picks `HH:mm` in a time picker, on whichever clock it shows (with AM/PM on the 12-hour one). */
export async function pickTime(scope: Locator, label: string, hhmm: string): Promise<void> {
  const group = scope.getByRole('group', { name: label });
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  const ampm = group.getByLabel('AM or PM');
  if (await ampm.count()) {
    await ampm.selectOption(h >= 12 ? 'PM' : 'AM');
    await group.getByLabel('Hour').selectOption(String(h % 12 === 0 ? 12 : h % 12));
  } else await group.getByLabel('Hour').selectOption(String(h));
  await group.getByLabel('Minute').selectOption(String(m));
}
