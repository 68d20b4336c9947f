import type { Delivery } from '../../src-shared/api/posts';
import { expect, test } from './support/fixtures';
import { dayAfter } from './support/dates';
import { dropFiles, goTo, screenshot } from './support/page';
import { sandboxApi } from './support/web-host';

// The browser runs in a zone that is not UTC, so "shown in local time, sent in UTC" is tested for real.
test.use({ timezoneId: 'Europe/Paris' });

test('compose with a dropped image and MP4, schedule it, and find it in the list and the calendar; then drag it', async ({
  app: page,
  host,
  media,
}) => {
  const caption = `Launch teaser ${Date.now().toString(36)}`;
  const day = dayAfter(3);
  // 10:00 on that day in the page's zone, as an instant: what the service must receive.
  const at = (d: string) => page.evaluate((local) => new Date(local).getTime(), `${d}T10:00`);
  const when = await at(day);
  expect(when).not.toBe(Date.parse(`${day}T10:00:00Z`));

  await goTo(page, 'Compose');
  await page.getByLabel('Caption').fill(caption);
  await expect(page.getByLabel(`${caption.length} of 2200 characters`)).toBeVisible();

  await dropFiles(page, page.getByRole('group', { name: 'Media drop zone' }), [media.png, media.mp4]);
  const attached = page.getByRole('list', { name: 'Attached media' });
  await expect(attached.getByRole('listitem')).toHaveCount(2);
  await expect(page.getByRole('img', { name: 'Preview of sunrise.png' })).toBeVisible();
  await expect(page.getByLabel('Preview of teaser.mp4')).toBeVisible();
  // Each file is checked, hashed and uploaded; both end up uploaded.
  for (const name of ['sunrise.png', 'teaser.mp4']) {
    await expect(attached.getByRole('listitem', { name })).toContainText('Uploaded', { timeout: 20_000 });
  }
  await expect(page.getByRole('progressbar', { name: 'Uploading teaser.mp4' })).toHaveAttribute(
    'aria-valuenow',
    '100',
  );

  await page.getByRole('checkbox', { name: /Instagram/ }).check();
  await page.getByRole('checkbox', { name: /LinkedIn/ }).check();
  await expect(page.getByText('YouTube is published through')).toBeVisible();
  // LinkedIn takes images or one video, never both: the post cannot go until one of them is removed.
  const blockers = page.getByRole('list', { name: 'Before you can submit' });
  await expect(blockers).toContainText(
    'LinkedIn takes images or a video, not both in one post; this one has 1 image and 1 video.',
  );
  await attached.getByRole('button', { name: 'Remove teaser.mp4' }).click();
  await expect(attached.getByRole('listitem')).toHaveCount(1);
  await expect(page.getByText(/LinkedIn takes images or a video/)).toHaveCount(0);
  await page.getByRole('radio', { name: 'Schedule' }).click();
  await page.getByLabel(/Date and time/).fill(`${day}T10:00`);
  const utc = new Date(when).toISOString().replace('.000Z', 'Z');
  // People read the time in their zone; the stamp the service gets stays in the details.
  await expect(page.locator('#compose-when-utc')).toHaveText(/^Goes out .+ time \(in \d+ days\)\.$/);
  const sent = page.locator('details').filter({ hasText: 'As sent to the service' });
  await sent.getByText('As sent to the service').click();
  await expect(sent).toContainText(`${utc} (UTC)`);
  await screenshot(page, 'compose');

  await page.getByRole('button', { name: 'Schedule', exact: true }).click();

  // The list shows the post once, with a chip for each of its two deliveries…
  await expect(page.getByRole('heading', { level: 1, name: 'Posts' })).toBeVisible();
  await page.getByLabel('Search').fill(caption);
  const rows = page.getByRole('article').filter({ hasText: caption });
  await expect(rows).toHaveCount(1);
  await expect(rows.getByTestId('target-chip')).toHaveCount(2);
  await expect(rows.first()).toContainText('scheduled');
  await screenshot(page, 'posts');

  // …and the service holds them at the UTC instant of 10:00 Paris time, with the image.
  const mine = async () =>
    (await sandboxApi<{ posts: Delivery[] }>(host, '/api/cli/posts?status=scheduled&limit=100')).posts.filter(
      (p) => p.caption === caption,
    );
  const created = await mine();
  expect(created).toHaveLength(2);
  for (const d of created) {
    expect(Date.parse(d.scheduled_at ?? '')).toBe(when);
    expect(d.media).toHaveLength(1);
  }

  // The calendar shows it on its day.
  await goTo(page, 'Calendar');
  const cell = (d: string) => page.locator(`td.fc-daygrid-day[data-date="${d}"]`);
  for (let i = 0; i < 2 && (await cell(day).count()) === 0; i++)
    await page.getByRole('button', { name: 'Next' }).click();
  const event = cell(day).locator('.fc-event', { hasText: caption });
  // One event for the post, with a mark for each of its two accounts.
  await expect(event).toHaveCount(1);
  await expect(event.locator('.platform-mark')).toHaveCount(2);
  await screenshot(page, 'calendar');

  // Drag the post a day later: the service moves the whole post's scheduled deliveries.
  const next = dayAfter(1, day);
  const target = (await cell(next).count()) > 0 ? next : dayAfter(-1, day);
  await event.first().dragTo(cell(target), { targetPosition: { x: 40, y: 40 } });
  await expect(page.getByRole('status').filter({ hasText: 'Rescheduled to' })).toBeVisible();
  await expect(cell(target).locator('.fc-event', { hasText: caption })).toHaveCount(1);
  await expect(cell(day).locator('.fc-event', { hasText: caption })).toHaveCount(0);
  // Same wall-clock time on the new day (FullCalendar keeps the time when a post moves between days).
  const expected = await at(target);
  await expect
    .poll(async () => (await mine()).map((d) => Date.parse(d.scheduled_at ?? '')))
    .toEqual([expected, expected]);
  await screenshot(page, 'calendar-rescheduled');
});
