import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { Cron } from 'croner';
import type { Account } from '../../src-shared/api/accounts';
import type { Delivery } from '../../src-shared/api/posts';
import { sortSlots } from '../../src-shared/queue';
import { expect, test } from './support/fixtures';
import { dropFiles, goTo, screenshot } from './support/page';
import {
  DAY_NAMES,
  addPostingTime,
  clearQueues,
  innerScrollers,
  showSlot,
  storedQueues,
} from './support/queue-grid';
import { sandboxApi } from './support/web-host';

interface SandboxState {
  readonly posts: number;
  readonly deliveries: Readonly<Record<string, number>>;
}

/** Each account's weekly posting times as "+ Add posting time" takes them, and the same slots as croner reads them. */
const PLANS = {
  x: {
    days: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'],
    times: ['09:00', '13:00'],
    zone: 'Europe/Berlin',
    cron: '0 9,13 * * 1-5',
  },
  linkedin: {
    days: DAY_NAMES,
    times: ['10:00'],
    zone: 'America/New_York',
    cron: '0 10 * * *',
  },
  instagram: {
    days: ['Monday', 'Wednesday', 'Friday'],
    times: ['08:30', '18:30'],
    zone: 'Asia/Tokyo',
    cron: '30 8,18 * * 1,3,5',
  },
} as const;
type Planned = keyof typeof PLANS;

const scheduled = async (host: Parameters<typeof sandboxApi>[0]): Promise<Delivery[]> =>
  (await sandboxApi<{ posts: Delivery[] }>(host, '/api/cli/posts?status=scheduled&limit=100')).posts;
const iso = (t: string) => new Date(t).toISOString();
const axeSerious = async (page: Page) =>
  (await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()).violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ rule: v.id, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
/** A queued post's card in the grid, by caption and platform. */
const card = (page: Page, caption: string, platform = 'X') =>
  page
    .getByRole('article', { name: `Queued post: ${caption}` })
    .filter({ has: page.getByRole('img', { name: platform, exact: true }) });

test('posting times for 3 accounts in 3 zones, added with "+ Add posting time", share one grid; 5 queued posts land on the next free slots; one dragged to the top moves once', async ({
  app: page,
  host,
  media,
}) => {
  const { accounts } = await sandboxApi<{ accounts: Account[] }>(host, '/api/cli/accounts');
  const account = (p: Planned) => accounts.find((a) => a.platform === p) as Account;
  const tag = Date.now().toString(36);

  await goTo(page, 'Queue');
  // Other flows on this shared host set posting times: these accounts start from none.
  await clearQueues(
    page,
    (Object.keys(PLANS) as Planned[]).map((p) => account(p).id),
  );
  for (const p of Object.keys(PLANS) as Planned[]) {
    const plan = PLANS[p];
    for (const time of plan.times)
      await addPostingTime(page, { days: plan.days, time, zone: plan.zone, accounts: [account(p).name] });
  }
  // What the host's store holds is what the dialog said: each account's days and times, in its zone.
  const stored = await storedQueues(page);
  for (const p of Object.keys(PLANS) as Planned[]) {
    const plan = PLANS[p];
    const want = sortSlots(
      plan.days.flatMap((d) =>
        plan.times.map((time) => ({ weekday: DAY_NAMES.indexOf(d as (typeof DAY_NAMES)[number]) + 1, time })),
      ),
    );
    const held = stored.find((q) => q.account_id === account(p).id);
    expect(held?.timezone, p).toBe(plan.zone);
    expect(held?.slots, p).toEqual(want);
  }

  // Another client already holds X's second slot: the queue must go round it.
  const xSlots = new Cron(PLANS.x.cron, { timezone: PLANS.x.zone, paused: true })
    .nextRuns(40)
    .map((d) => d.toISOString());
  // The grid shows X's first slot with X among the accounts posting then.
  const firstSlot = await showSlot(page, xSlots[0] as string);
  await expect(firstSlot.getByRole('list', { name: /^Accounts posting/ })).toContainText(account('x').name);
  await sandboxApi(host, '/api/cli/posts', {
    method: 'POST',
    body: JSON.stringify({
      caption: `Held ${tag}`,
      targets: [{ social_account_id: account('x').id, platform: 'x' }],
      scheduled_at: xSlots[1],
    }),
  });

  // Where each account's 5 posts must land: croner's next slots, without the ones the service already holds.
  const before = await scheduled(host);
  const expected = Object.fromEntries(
    (Object.keys(PLANS) as Planned[]).map((p) => {
      const held = new Set(
        before
          .filter((d) => d.social_account_id === account(p).id && d.scheduled_at)
          .map((d) => iso(d.scheduled_at as string)),
      );
      const slots = new Cron(PLANS[p].cron, { timezone: PLANS[p].zone, paused: true })
        .nextRuns(5 + held.size + 1)
        .map((d) => d.toISOString())
        .filter((t) => !held.has(t));
      return [p, slots.slice(0, 5)];
    }),
  ) as Record<Planned, string[]>;
  expect(expected.x).not.toContain(xSlots[1]);
  const stateBefore = await sandboxApi<SandboxState>(host, '/_sandbox/state');

  // From an empty composer: a post another flow on this host was writing would bring its media and accounts.
  await goTo(page, 'Compose');
  await page.getByRole('button', { name: 'New post' }).click();
  await expect(page.getByLabel('Caption')).toHaveValue('');
  for (let i = 1; i <= 5; i += 1) {
    await goTo(page, 'Compose');
    await page.getByLabel('Caption').fill(`Queued ${tag} #${i}`);
    // Instagram takes no text-only post: each carries an image (the same bytes, uploaded once).
    await dropFiles(page, page.getByRole('group', { name: 'Media drop zone' }), [media.png]);
    await expect(
      page.getByRole('list', { name: 'Attached media' }).getByRole('listitem', { name: 'sunrise.png' }),
    ).toContainText(/uploaded/i, { timeout: 20_000 });
    for (const p of Object.keys(PLANS) as Planned[])
      await page.getByRole('checkbox', { name: account(p).name }).check();
    await page.getByRole('button', { name: 'Add to queue' }).click();
    // Three zones share no slot: the split is said, with its times, before anything is made.
    const split = page.getByRole('alertdialog', { name: 'This post will be split into 3 posts' });
    await expect(split.getByRole('list', { name: 'Where each part goes' }).getByRole('listitem')).toHaveCount(
      3,
    );
    await split.getByRole('button', { name: 'Split and add' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Queue' })).toBeVisible();
  }

  const after = await scheduled(host);
  for (const p of Object.keys(PLANS) as Planned[]) {
    const mine = after
      .filter((d) => d.social_account_id === account(p).id && d.caption.startsWith(`Queued ${tag}`))
      .map((d) => [iso(d.scheduled_at as string), d.caption])
      .sort(([a], [b]) => (a as string).localeCompare(b as string));
    expect(mine, p).toEqual(expected[p].map((t, i) => [t, `Queued ${tag} #${i + 1}`]));
  }
  const stateAfter = await sandboxApi<SandboxState>(host, '/_sandbox/state');
  // 3 accounts in 3 zones never share an instant: one post per account per add.
  expect(stateAfter.posts - stateBefore.posts).toBe(15);
  expect((stateAfter.deliveries.scheduled ?? 0) - (stateBefore.deliveries.scheduled ?? 0)).toBe(15);

  // Each queued post fills its slot in the grid, beside the post another client holds.
  await expect((await showSlot(page, expected.x[0] as string)).getByRole('article')).toContainText(
    `Queued ${tag} #1`,
  );
  await expect((await showSlot(page, xSlots[1] as string)).getByRole('article')).toContainText(`Held ${tag}`);
  await screenshot(page, 'queue');
  // Filled slots and their actions are as accessible as the rest (the a11y spec sees the screen empty).
  expect(await axeSerious(page)).toEqual([]);

  // Post #3 of X dragged to the top: it takes X's first slot and the posts before its old slot shift one slot down.
  const stateBeforeMove = await sandboxApi<SandboxState>(host, '/_sandbox/state');
  await showSlot(page, expected.x[2] as string);
  await card(page, `Queued ${tag} #3`).dragTo(page.getByRole('region', { name: 'Top of the queue' }));
  await expect(page.getByText('Moved to the top of the queue.')).toBeVisible();
  const xNow = (await scheduled(host))
    .filter((d) => d.social_account_id === account('x').id && d.caption.includes(tag))
    .map((d) => [iso(d.scheduled_at as string), d.caption])
    .sort(([a], [b]) => (a as string).localeCompare(b as string));
  const order = [
    `Queued ${tag} #3`,
    `Queued ${tag} #1`,
    `Held ${tag}`,
    `Queued ${tag} #2`,
    `Queued ${tag} #4`,
    `Queued ${tag} #5`,
  ];
  expect(xNow.map(([, c]) => c)).toEqual(order);
  // X's first six slots that no other flow's post on this shared host already holds.
  const othersX = new Set(
    before
      .filter((d) => d.social_account_id === account('x').id && d.scheduled_at && !d.caption.includes(tag))
      .map((d) => iso(d.scheduled_at as string)),
  );
  const freeX = xSlots.filter((t) => !othersX.has(t));
  expect(xNow.map(([t]) => t)).toEqual(freeX.slice(0, 6));
  // Moved, not copied: no post or delivery more than before.
  expect(await sandboxApi<SandboxState>(host, '/_sandbox/state')).toEqual(stateBeforeMove);
  await expect((await showSlot(page, freeX[0] as string)).getByRole('article')).toContainText(
    `Queued ${tag} #3`,
  );
  await screenshot(page, 'queue-moved');
});

test('a queued post dragged to a free slot of its week, then moved from the keyboard, changes its time once and stays one post', async ({
  app: page,
  host,
}) => {
  const { accounts } = await sandboxApi<{ accounts: Account[] }>(host, '/api/cli/accounts');
  const x = accounts.find((a) => a.platform === 'x') as Account;
  const tag = Date.now().toString(36);
  await goTo(page, 'Queue');
  await clearQueues(page, [x.id]);
  for (const time of ['06:00', '12:00', '18:00'])
    await addPostingTime(page, { days: DAY_NAMES, time, zone: 'UTC', accounts: [x.name] });

  // Two free slots of X next to each other in one week of the grid: the post starts on the first.
  const held = new Set(
    (await scheduled(host))
      .filter((d) => d.social_account_id === x.id)
      .map((d) => iso(d.scheduled_at as string)),
  );
  const free = new Cron('0 6,12,18 * * *', { timezone: 'UTC', paused: true })
    .nextRuns(30)
    .map((d) => d.toISOString())
    .filter((t) => !held.has(t));
  let pair: [string, string] | null = null;
  for (let i = 0; i + 1 < free.length && !pair; i += 1) {
    await showSlot(page, free[i] as string);
    if ((await page.locator(`[data-at="${free[i + 1]}"]`).count()) === 1)
      pair = [free[i] as string, free[i + 1] as string];
  }
  if (!pair) throw new Error('no two free slots of X in one week');
  const [from, to] = pair;
  const caption = `Drag me ${tag}`;
  await sandboxApi(host, '/api/cli/posts', {
    method: 'POST',
    body: JSON.stringify({
      caption,
      targets: [{ social_account_id: x.id, platform: 'x' }],
      scheduled_at: from,
    }),
  });
  const mine = async () => (await scheduled(host)).filter((d) => d.caption === caption);
  // The queue learns of another client's post when it reads the service again.
  await expect(async () => {
    await page.getByRole('button', { name: /^Refresh/ }).click();
    await showSlot(page, from);
    await expect(card(page, caption)).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  const before = await sandboxApi<SandboxState>(host, '/_sandbox/state');

  // The whole week in view: a drag is from one place on screen to another (no scrolling mid-drag).
  await page.setViewportSize({ width: 1280, height: 1600 });
  await card(page, caption).dragTo(page.locator(`[data-at="${to}"]`));
  // Said as the slot's time: not the top of the queue, which is a drop zone of its own.
  await expect(page.getByText(/^Moved to (?!the top)/)).toBeVisible();
  await expect.poll(async () => (await mine()).map((d) => iso(d.scheduled_at as string))).toEqual([to]);
  expect(await sandboxApi<SandboxState>(host, '/_sandbox/state')).toEqual(before);
  await expect(page.locator(`[data-at="${to}"]`).getByRole('article')).toContainText(caption);
  await screenshot(page, 'queue-dragged');

  // From the keyboard alone: the card's Move… menu, the slot list, the Move button.
  await card(page, caption)
    .getByRole('button', { name: `Move… ${caption}` })
    .focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Move the post' });
  await expect(dialog).toBeVisible();
  const target = await dialog.getByLabel('Or to a free slot').inputValue();
  expect(target).not.toBe(to);
  const moveButton = dialog.getByRole('button', { name: 'Move to this slot' });
  for (
    let i = 0;
    i < 8 && !(await moveButton.evaluate((el) => el === el.ownerDocument.activeElement));
    i += 1
  )
    await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect.poll(async () => (await mine()).map((d) => iso(d.scheduled_at as string))).toEqual([target]);
  expect(await sandboxApi<SandboxState>(host, '/_sandbox/state')).toEqual(before);
});

test('the grid shows times on the chosen clock, fits 1280×800 with nothing scrolling inside it, and passes axe in both themes', async ({
  app: page,
  host,
}) => {
  const { accounts } = await sandboxApi<{ accounts: Account[] }>(host, '/api/cli/accounts');
  const x = accounts.find((a) => a.platform === 'x') as Account;
  await page.setViewportSize({ width: 1280, height: 800 });
  await goTo(page, 'Queue');
  const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  await addPostingTime(page, { days: DAY_NAMES, time: '13:00', zone, accounts: [x.name] });
  const clock = async (option: string) => {
    await goTo(page, 'Settings');
    const radio = page.getByRole('radiogroup', { name: 'Time format' }).getByRole('radio', { name: option });
    await radio.click();
    await expect(radio).toHaveAttribute('aria-checked', 'true');
    await goTo(page, 'Queue');
  };
  try {
    await clock('24-hour');
    await expect(page.getByRole('rowheader', { name: '13:00', exact: true })).toBeVisible();
    await expect(page.getByRole('rowheader', { name: /PM/ })).toHaveCount(0);
    await clock('12-hour');
    await expect(page.getByRole('rowheader', { name: '1:00 PM', exact: true })).toBeVisible();
    await expect(page.getByRole('rowheader', { name: '13:00', exact: true })).toHaveCount(0);
  } finally {
    await clock('Automatic');
  }
  expect(await innerScrollers(page)).toEqual([]);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.getByRole('table', { name: 'Posting times this week' })).toBeVisible();
    expect(await axeSerious(page), scheme).toEqual([]);
    await screenshot(page, `queue-grid-${scheme}`);
  }
  await page.getByRole('button', { name: '+ Add posting time' }).click();
  expect(await axeSerious(page), 'the dialog').toEqual([]);
  await page.keyboard.press('Escape');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 800, height: 600 });
  await screenshot(page, 'queue-grid-800');
});

test('a CSV imported with "Fill my queue" takes the next free slots, not its times; the same file again sends nothing', async ({
  app: page,
  host,
}) => {
  const { accounts } = await sandboxApi<{ accounts: Account[] }>(host, '/api/cli/accounts');
  // X takes a text-only post (TikTok needs a video or photos, which the dry run would hold back).
  const x = accounts.find((a) => a.platform === 'x') as Account;
  const tag = Date.now().toString(36);

  await goTo(page, 'Queue');
  await clearQueues(page, [x.id]);
  await addPostingTime(page, {
    days: DAY_NAMES,
    time: '07:15',
    zone: 'Australia/Sydney',
    accounts: [x.name],
  });
  expect((await storedQueues(page)).find((q) => q.account_id === x.id)).toMatchObject({
    timezone: 'Australia/Sydney',
    slots: DAY_NAMES.map((_, i) => ({ weekday: i + 1, time: '07:15' })),
  });

  const held = new Set(
    (await scheduled(host))
      .filter((d) => d.social_account_id === x.id && d.scheduled_at)
      .map((d) => iso(d.scheduled_at as string)),
  );
  const expected = new Cron('15 7 * * *', { timezone: 'Australia/Sydney', paused: true })
    .nextRuns(3 + held.size)
    .map((d) => d.toISOString())
    .filter((t) => !held.has(t))
    .slice(0, 3);
  const csv = [
    'caption,targets,scheduled_at',
    // The file's times (even one in the past) are not read when the queue fills the rows.
    ...Array.from(
      { length: 3 },
      (_, i) => `"Bulk queue ${tag} #${i + 1}",x:${x.id},2020-01-0${i + 1}T09:00:00Z`,
    ),
  ].join('\n');
  const file = { name: `queue-${tag}.csv`, type: 'text/csv', base64: Buffer.from(csv).toString('base64') };
  await goTo(page, 'Bulk');
  await page.getByRole('checkbox', { name: /^Fill my queue/ }).check();
  await dropFiles(page, page.getByRole('group', { name: 'CSV drop zone' }), [file]);
  const title = page.locator('#bulk-plan-title');
  await expect(title).toHaveText(`Dry run: queue-${tag}.csv`);
  await page.getByRole('button', { name: /^Submit 3 posts/ }).click();
  await expect(title).toHaveText(`Imported: queue-${tag}.csv`, { timeout: 30_000 });
  await screenshot(page, 'queue-bulk');

  const mine = async () =>
    (await scheduled(host))
      .filter((d) => d.caption.startsWith(`Bulk queue ${tag}`))
      .map((d) => [iso(d.scheduled_at as string), d.caption])
      .sort(([a], [b]) => (a as string).localeCompare(b as string));
  expect(await mine()).toEqual(expected.map((t, i) => [t, `Bulk queue ${tag} #${i + 1}`]));

  const state = await sandboxApi<SandboxState>(host, '/_sandbox/state');
  await page.getByRole('button', { name: 'Import another CSV' }).click();
  await dropFiles(page, page.getByRole('group', { name: 'CSV drop zone' }), [file]);
  await page.getByRole('button', { name: /^Submit 3 posts/ }).click();
  await expect(title).toHaveText(`Imported before: queue-${tag}.csv`, { timeout: 30_000 });
  expect((await sandboxApi<SandboxState>(host, '/_sandbox/state')).posts).toBe(state.posts);
  expect(await mine()).toEqual(expected.map((t, i) => [t, `Bulk queue ${tag} #${i + 1}`]));
});
