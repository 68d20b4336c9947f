import AxeBuilder from '@axe-core/playwright';
import { Cron } from 'croner';
import type { Account } from '../../src-shared/api/accounts';
import type { Delivery } from '../../src-shared/api/posts';
import { expect, test } from './support/fixtures';
import { dropFiles, goTo, screenshot } from './support/page';
import { sandboxApi } from './support/web-host';

interface SandboxState {
  readonly posts: number;
  readonly deliveries: Readonly<Record<string, number>>;
}

/** Each account's weekly slots as the Queue screen takes them, and the same slots as croner reads them. */
const PLANS = {
  x: {
    days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'],
    times: '09:00, 13:00',
    zone: 'Europe/Berlin',
    cron: '0 9,13 * * 1-5',
  },
  linkedin: {
    days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'],
    times: '10:00',
    zone: 'America/New_York',
    cron: '0 10 * * *',
  },
  instagram: {
    days: ['Mon', 'Wed', 'Fri'],
    times: '08:30, 18:30',
    zone: 'Asia/Tokyo',
    cron: '30 8,18 * * 1,3,5',
  },
} as const;
type Planned = keyof typeof PLANS;
const ALL_DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

const scheduled = async (host: Parameters<typeof sandboxApi>[0]): Promise<Delivery[]> =>
  (await sandboxApi<{ posts: Delivery[] }>(host, '/api/cli/posts?status=scheduled&limit=100')).posts;
const iso = (t: string) => new Date(t).toISOString();
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('slots for 3 accounts in 3 zones; 5 posts added to the queue land on the next 5 free slots of each; move to top', async ({
  app: page,
  host,
  media,
}) => {
  const { accounts } = await sandboxApi<{ accounts: Account[] }>(host, '/api/cli/accounts');
  const account = (p: Planned) => accounts.find((a) => a.platform === p) as Account;
  const tag = Date.now().toString(36);

  await goTo(page, 'Queue');
  for (const p of Object.keys(PLANS) as Planned[]) {
    const plan = PLANS[p];
    const card = page.getByRole('region', { name: new RegExp(escape(account(p).name)) });
    const form = card.getByRole('form', { name: `Posting times of ${account(p).name}` });
    for (const d of ALL_DAYS) {
      const box = form.getByRole('checkbox', { name: new RegExp(`^${d}`) });
      if ((plan.days as readonly string[]).includes(d)) await box.check();
      else await box.uncheck();
    }
    await form.getByLabel('Times').fill(plan.times);
    await form.getByLabel('Time zone').fill(plan.zone);
    await form.getByRole('button', { name: 'Save posting times' }).click();
    await expect(
      card.getByText(`${plan.days.length * plan.times.split(',').length} slots a week · ${plan.zone}`),
    ).toBeVisible();
  }

  // Another client already holds X's second slot: the queue must go round it.
  const xSlots = new Cron(PLANS.x.cron, { timezone: PLANS.x.zone, paused: true })
    .nextRuns(8)
    .map((d) => d.toISOString());
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

  const xCard = page.getByRole('region', { name: /Demo X/ });
  const xList = xCard.getByRole('list', { name: /Upcoming slots of/ });
  await expect(xList).toContainText(`Queued ${tag} #1`);
  await expect(xList).toContainText(`Held ${tag}`);
  await screenshot(page, 'queue');
  // Filled slots and their actions are as accessible as the rest (the a11y spec sees the screen empty).
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);

  // Post #3 of X to the top: it takes X's first slot and the posts before its old slot shift one slot down.
  const third = xList.getByRole('listitem').filter({ hasText: `Queued ${tag} #3` });
  await third.getByRole('button', { name: 'Move to top' }).click();
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
  expect(xNow.map(([t]) => t)).toEqual(xSlots.slice(0, 6));
  await expect(xList.getByRole('listitem').first()).toContainText(`Queued ${tag} #3`);

  // #5 to another slot: the first free one after the six filled.
  const fifth = xList.getByRole('listitem').filter({ hasText: `Queued ${tag} #5` });
  await fifth.getByLabel('Move to another slot').selectOption({ index: 1 });
  await fifth.getByRole('button', { name: 'Move', exact: true }).click();
  await expect(xList.getByRole('listitem').nth(6)).toContainText(`Queued ${tag} #5`);
  const moved = (await scheduled(host)).find((d) => d.caption === `Queued ${tag} #5` && d.platform === 'x');
  expect(iso(moved?.scheduled_at as string)).toBe(xSlots[6]);
  await screenshot(page, 'queue-moved');
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
  const form = page.getByRole('form', { name: `Posting times of ${x.name}` });
  for (const d of ALL_DAYS) await form.getByRole('checkbox', { name: new RegExp(`^${d}`) }).check();
  await form.getByLabel('Times').fill('07:15');
  await form.getByLabel('Time zone').fill('Australia/Sydney');
  await form.getByRole('button', { name: 'Save posting times' }).click();
  await expect(page.getByText('7 slots a week · Australia/Sydney')).toBeVisible();

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
