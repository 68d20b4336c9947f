import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import type { Delivery } from '../../src-shared/api/posts';
import { captionMax } from '../../src-shared/platform-rules';
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
  // The previews lay the two files out as each feed does: Instagram a carousel showing the first with its count,
  // LinkedIn a grid of both, the video by its poster frame.
  const instagram = page.getByRole('article', { name: 'Preview on Instagram' });
  await expect(instagram.getByLabel('First of 2 files')).toBeVisible();
  await expect(instagram.getByRole('img', { name: 'First image, sunrise.png' })).toBeVisible();
  const linkedin = page.getByRole('article', { name: 'Preview on LinkedIn' });
  await expect(linkedin.getByRole('img', { name: 'First image, sunrise.png' })).toBeVisible();
  await expect(linkedin.getByLabel('Number 2 video, teaser.mp4 (poster frame)')).toBeVisible();
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
  // The calendar settled (its refresh in, nothing loading), so the drag is not cut short by a re-render.
  await expect(page.getByText(/^Updated /)).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0);
  // Both days in sight before the drag (the month's last row can sit below a short window's fold).
  await cell(target).scrollIntoViewIfNeeded();
  // Pressed, then moved in steps, as a hand drags: FullCalendar starts a drag only once the pointer has moved.
  const from = await event.first().boundingBox();
  const to = await cell(target).boundingBox();
  if (!from || !to) throw new Error('the post or its new day is not on screen');
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x + 40, to.y + 40, { steps: 12 });
  // The month's rows can change height while the drag is under way (the dragged card leaves its day, a refresh
  // lands): the pointer settles on the target day where it is now, as a hand follows it, before letting go.
  const settled = await cell(target).boundingBox();
  if (settled) await page.mouse.move(settled.x + 40, settled.y + 40, { steps: 3 });
  await page.mouse.up();
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

/**
 * Issue 26, item 1: one focused composer. The accounts along the top, previews as each platform shows the post,
 * and one footer with When and Send that nothing focused can ever be under.
 */

const FOOTER = 'section[aria-label="When and send"]';

interface FocusStop {
  readonly name: string;
  readonly tag: string;
  /** The focused element is what is at its own centre (nothing lies over it), wholly inside the window. */
  readonly uncovered: boolean;
  /** Outside the footer, the focused element's box does not meet the footer's. */
  readonly clearOfFooter: boolean;
  /** It shows that it has focus: an outline or a ring, on it or on the label it sits in. */
  readonly ring: boolean;
  readonly submit: boolean;
}

// Page code as text: the test's own types do not include the DOM.
const FOCUS_STOP = `(() => {
  const el = document.activeElement;
  if (!el || el === document.body) return { name: '', tag: 'BODY', uncovered: true, clearOfFooter: true, ring: true, submit: false };
  const r = el.getBoundingClientRect();
  const f = document.querySelector(${JSON.stringify(FOOTER)}).getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  const inFooter = !!el.closest(${JSON.stringify(FOOTER)});
  const meets = r.bottom > f.top && r.top < f.bottom && r.right > f.left && r.left < f.right;
  const shows = (e) => {
    if (!e) return false;
    const s = getComputedStyle(e);
    return (s.outlineStyle !== 'none' && s.outlineWidth !== '0px') || s.boxShadow !== 'none';
  };
  const label = el.closest('label');
  return {
    name: (el.getAttribute('aria-label') || el.labels?.[0]?.textContent || el.textContent || '').trim().replace(/\\s+/g, ' '),
    tag: el.tagName,
    uncovered: !!hit && (hit === el || el.contains(hit)) && r.top >= 0 && r.bottom <= innerHeight,
    clearOfFooter: inFooter || !meets,
    // A date field's parts take focus inside it, so the field shows the ring for them (:focus-within).
    ring: (el.matches(':focus-visible') || el.matches(':focus-within')) && (shows(el) || shows(label)),
    submit: el.getAttribute('type') === 'submit',
  };
})()`;

const focusStop = (page: Page): Promise<FocusStop> => page.evaluate<FocusStop>(FOCUS_STOP);

/** Tab until `until` matches, checking every stop on the way; the names of the stops, in order. */
async function tabThrough(page: Page, until: (s: FocusStop) => boolean, max = 80): Promise<string[]> {
  const names: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const stop = await focusStop(page);
    names.push(stop.name);
    expect(stop.uncovered, `nothing lies over “${stop.name}”`).toBe(true);
    expect(stop.clearOfFooter, `the footer does not cover “${stop.name}”`).toBe(true);
    expect(stop.ring, `focus shows on “${stop.name}”`).toBe(true);
    if (until(stop)) return names;
  }
  throw new Error(`not reached within ${max} Tabs; went through ${names.join(' → ')}`);
}

async function freshCompose(page: Page): Promise<void> {
  await goTo(page, 'Compose');
  await page.getByRole('button', { name: 'New post' }).click();
  await expect(page.getByRole('textbox', { name: 'Caption' })).toHaveValue('');
}

/** Empties the composer and discards the local drafts these flows leave ("New post" keeps the one before). */
async function discardDrafts(page: Page): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 800 });
  await freshCompose(page);
  const drafts = page.getByRole('list', { name: 'Local drafts' }).getByRole('listitem');
  await expect(async () => {
    if ((await drafts.count()) > 0)
      await drafts
        .first()
        .getByRole('button', { name: /^Discard/ })
        .click();
    await expect(drafts).toHaveCount(0, { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
}

test.afterEach(async ({ app }) => discardDrafts(app));

for (const size of [
  { width: 1280, height: 800 },
  { width: 800, height: 600 },
]) {
  test(`keyboard only at ${size.width}×${size.height}: every control to Send, none under the footer, then Ctrl+Enter schedules it`, async ({
    app: page,
    host,
  }) => {
    await page.setViewportSize(size);
    await freshCompose(page);
    const caption = `Keyboard ${size.width} ${Date.now().toString(36)} https://example.com/guides/getting-started`;
    await page.getByRole('button', { name: 'New post' }).focus();

    // The accounts first, along the top: Space picks X, LinkedIn and Instagram.
    await tabThrough(page, (s) => /^Demo LinkedIn/.test(s.name));
    await page.keyboard.press('Space');
    await tabThrough(page, (s) => /^Demo X/.test(s.name));
    await page.keyboard.press('Space');
    await tabThrough(page, (s) => s.name === 'Caption');
    await page.keyboard.type(caption);
    // Tomorrow 9:00 from the footer's quick times, then on through every control to Send.
    await tabThrough(page, (s) => /^Tomorrow/.test(s.name));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('radio', { name: 'Schedule' })).toBeChecked();
    const at = await page.getByLabel(/Date and time/).inputValue();
    expect(at).toMatch(/^\d{4}-\d{2}-\d{2}T09:00$/);
    // Back to the top of the screen, and Tab through all of it to Send.
    await page.getByRole('button', { name: 'New post' }).focus();
    const stops = await tabThrough(page, (s) => s.submit);
    expect(stops).toEqual(
      expect.arrayContaining(['Caption', 'Choose files', 'Pick a time…', 'Add to queue']),
    );
    expect(stops.at(-1)).toBe('Schedule');
    await page.screenshot({ path: `test-results/screens/compose-keyboard-${size.width}.png` });

    // Ctrl+Enter from the caption sends, with the same checks as the button.
    await page.getByRole('textbox', { name: 'Caption' }).focus();
    await page.keyboard.press('Control+Enter');
    await expect(page.getByRole('heading', { level: 1, name: 'Posts' })).toBeVisible();
    const when = await page.evaluate((local) => new Date(local).getTime(), at);
    await expect
      .poll(async () =>
        (await sandboxApi<{ posts: Delivery[] }>(host, '/api/cli/posts?status=scheduled&limit=100')).posts
          .filter((p) => p.caption === caption)
          .map((p) => [p.platform, Date.parse(p.scheduled_at ?? '')])
          .sort(),
      )
      .toEqual([
        ['linkedin', when],
        ['x', when],
      ]);
  });
}

test('Ctrl+Enter sends only what Send would: held back, it shows why; ready, the post goes out', async ({
  app: page,
  host,
}) => {
  await freshCompose(page);
  const caption = `Shortcut ${Date.now().toString(36)}`;
  const box = page.getByRole('textbox', { name: 'Caption' });
  await box.fill(caption);
  // No account yet: nothing is sent, and focus goes to what holds it back.
  await box.press('Control+Enter');
  const blockers = page.getByRole('list', { name: 'Before you can submit' });
  await expect(blockers).toBeFocused();
  await expect(blockers).toContainText('Pick at least one account.');
  await expect(page.getByRole('heading', { level: 1, name: 'Compose' })).toBeVisible();

  await page.getByRole('checkbox', { name: /Demo X/ }).check();
  await box.press('Control+Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Posts' })).toBeVisible();
  await expect
    .poll(
      async () =>
        (await sandboxApi<{ posts: Delivery[] }>(host, '/api/cli/posts?limit=100')).posts.filter(
          (p) => p.caption === caption,
        ).length,
    )
    .toBe(1);
});

test('three accounts picked: all three avatars in sight, at 1280×800 and 800×600', async ({ app: page }) => {
  await freshCompose(page);
  const names = [/^Demo X/, /^Demo LinkedIn/, /^Demo TikTok/];
  for (const name of names) await page.getByRole('checkbox', { name }).check();
  for (const size of [
    { width: 1280, height: 800 },
    { width: 800, height: 600 },
  ]) {
    await page.setViewportSize(size);
    for (const name of names) {
      const box = page.getByRole('checkbox', { name });
      await expect(box).toBeChecked();
      const avatar = page.locator('label', { has: box }).getByTestId('account-avatar');
      await expect(avatar).toBeInViewport({ ratio: 1 });
      // Nothing over it (not the footer, not a neighbour): what is at its centre is its own control.
      const hit = await box.evaluate((el) => {
        const r = (
          el as unknown as {
            getBoundingClientRect(): { x: number; y: number; width: number; height: number };
          }
        ).getBoundingClientRect();
        const d = (globalThis as unknown as { document: { elementFromPoint(x: number, y: number): unknown } })
          .document;
        return d.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2) === el;
      });
      expect(hit).toBe(true);
    }
    await page.screenshot({ path: `test-results/screens/compose-three-accounts-${size.width}.png` });
  }
});

test('previews: a link card for a URL, X counts a long URL as 23 and shows it shortened, LinkedIn counts against the limit its hint names', async ({
  app: page,
}) => {
  await freshCompose(page);
  await page.getByRole('checkbox', { name: /Demo X/ }).check();
  await page.getByRole('checkbox', { name: /Demo LinkedIn/ }).check();
  const url = 'https://www.example.com/guides/a-rather-long-address-that-goes-on-and-on?campaign=launch';
  await page.getByRole('textbox', { name: 'Caption' }).fill(`Read ${url}`);

  const x = page.getByRole('article', { name: 'Preview on X' });
  await expect(x.getByLabel('X counts 28 of 280 characters')).toBeVisible();
  // Shown as X shows it: no scheme, cut short; the whole address is not in the text.
  await expect(x.getByText('example.com/guides/a-r…')).toBeVisible();
  await expect(x).not.toContainText(url);
  // The author: the account's name and handle.
  await expect(x).toContainText('Demo X');
  await expect(x).toContainText('@postdesk_demo');
  for (const preview of [x, page.getByRole('article', { name: 'Preview on LinkedIn' })]) {
    const card = preview.getByRole('group', { name: 'Link card: example.com' });
    await expect(card).toBeVisible();
    await expect(card).toContainText('A rather long address that goes on and on');
  }

  // LinkedIn: the number in its hint is the number its preview counts against, and the rules table's.
  const hint = page.locator('#compose-caption-hints > span', { hasText: /^LinkedIn:/ });
  const named = Number(
    /Up to ([\d,]+) characters/.exec((await hint.textContent()) ?? '')?.[1]?.replace(/,/g, ''),
  );
  expect(named).toBe(captionMax('linkedin'));
  const linkedin = page.getByRole('article', { name: 'Preview on LinkedIn' });
  await expect(linkedin.getByLabel(`LinkedIn counts ${5 + url.length} of ${named} characters`)).toBeVisible();
  await expect(linkedin).toContainText(`/ ${named.toLocaleString('en-US')}`);
  await screenshot(page, 'compose-link-previews');
});

test('Compose, with accounts, previews, a link card and a time picked: no serious axe violation in light or dark', async ({
  app: page,
}) => {
  await freshCompose(page);
  await page.getByRole('checkbox', { name: /Demo X/ }).check();
  await page.getByRole('checkbox', { name: /Demo Instagram/ }).check();
  await page
    .getByRole('textbox', { name: 'Caption' })
    .fill(`${'Long enough to fold. '.repeat(8)}https://example.com/news`);
  await page.getByRole('button', { name: /^Tomorrow/ }).click();
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const axe = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
      .analyze();
    expect(
      axe.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);
    await screenshot(page, `compose-${colorScheme}`);
  }
  await page.getByRole('button', { name: 'New post' }).click();
});

test('"Next free slot" takes the queue\'s next free posting time for the picked account, and the post goes there', async ({
  app: page,
  host,
}) => {
  const x = (
    await sandboxApi<{ accounts: { id: string; platform: string }[] }>(host, '/api/cli/accounts')
  ).accounts.find((a) => a.platform === 'x')!;
  type Bridge = {
    postdesk: { queue: { set(i: unknown): Promise<unknown>; plan(i: unknown): Promise<unknown> } };
  };
  // Every day at 07:15 UTC, set through the app's own bridge (the Queue screen's door).
  const setSlots = (slots: { weekday: number; time: string }[]) =>
    page.evaluate(
      ([account, s]) =>
        (globalThis as unknown as Bridge).postdesk.queue.set({
          account_id: account,
          schedule: { timezone: 'UTC', slots: s },
        }),
      [x.id, slots] as const,
    );
  await setSlots([1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, time: '07:15' })));
  try {
    // Compose reads the posting times each time it opens (as after setting them on the Queue screen).
    await goTo(page, 'Posts');
    await freshCompose(page);
    const caption = `Next slot ${Date.now().toString(36)}`;
    await page.getByRole('textbox', { name: 'Caption' }).fill(caption);
    await page.getByRole('checkbox', { name: /Demo X/ }).check();
    // Where the queue itself would put it now.
    const plan = (await page.evaluate(
      (account) =>
        (globalThis as unknown as Bridge).postdesk.queue.plan({
          targets: [{ social_account_id: account, platform: 'x' }],
        }),
      x.id,
    )) as { ok: boolean; value: { posts: { at: string }[] } };
    const slot = Date.parse(plan.value.posts[0]?.at ?? '');
    expect(new Date(slot).toISOString()).toMatch(/T07:15:00\.000Z$/);

    await page.getByRole('button', { name: 'Next free slot' }).click();
    await expect(page.getByRole('radio', { name: 'Schedule' })).toBeChecked();
    const local = await page.getByLabel(/Date and time/).inputValue();
    expect(await page.evaluate((v) => new Date(v).getTime(), local)).toBe(slot);
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Posts' })).toBeVisible();
    await expect
      .poll(async () =>
        (await sandboxApi<{ posts: Delivery[] }>(host, '/api/cli/posts?status=scheduled&limit=100')).posts
          .filter((p) => p.caption === caption)
          .map((p) => Date.parse(p.scheduled_at ?? '')),
      )
      .toEqual([slot]);
  } finally {
    await setSlots([]);
  }
});
