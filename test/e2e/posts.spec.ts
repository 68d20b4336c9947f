import type { Account } from '../../src-shared/api/accounts';
import type { CreatePostResponse, Delivery } from '../../src-shared/api/posts';
import { violations } from './support/axe';
import { expect, test } from './support/fixtures';
import { dayAfter } from './support/dates';
import { goTo, screenshot } from './support/page';
import { accountsOf, createPost as createTo, uploadPng } from './support/seed';
import { sandboxApi, type WebHost } from './support/web-host';

async function createPost(host: WebHost, caption: string, scheduledAt?: string): Promise<CreatePostResponse> {
  const { accounts } = await sandboxApi<{ accounts: Account[] }>(host, '/api/cli/accounts');
  const x = accounts.find((a) => a.platform === 'x');
  return sandboxApi<CreatePostResponse>(host, '/api/cli/posts', {
    method: 'POST',
    body: JSON.stringify({
      caption,
      targets: [{ social_account_id: x?.id, platform: 'x' }],
      ...(scheduledAt ? { scheduled_at: scheduledAt } : {}),
    }),
  });
}

test('edit a scheduled post, cancel it to draft, and read why a published one offers no delete', async ({
  app: page,
  host,
}) => {
  const tag = Date.now().toString(36);
  const scheduled = await createPost(host, `Edit me ${tag}`, `${dayAfter(4)}T15:00:00Z`);
  await createPost(host, `Already out ${tag}`);

  // Keyboard: `g` then `p` opens Posts.
  await goTo(page, 'Compose');
  await page.keyboard.press('g');
  await page.keyboard.press('p');
  await expect(page.getByRole('heading', { level: 1, name: 'Posts' })).toBeVisible();
  await page.getByLabel('Search').fill(tag);
  await expect(page.getByRole('article').filter({ hasText: tag })).toHaveCount(2);

  await page.getByRole('button', { name: new RegExp(`^Edit post: Edit me ${tag}`) }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit post' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Caption').fill(`Edited ${tag}`);
  await dialog.getByRole('button', { name: 'Save caption' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('article').filter({ hasText: `Edited ${tag}` })).toContainText('scheduled');

  await page.getByRole('button', { name: new RegExp(`^Edit post: Edited ${tag}`) }).click();
  await dialog.getByRole('button', { name: 'Cancel to draft' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('article').filter({ hasText: `Edited ${tag}` })).toContainText('draft');
  const id = scheduled.social_posts[0]?.id;
  const { posts } = await sandboxApi<{ posts: Delivery[] }>(host, '/api/cli/posts?status=draft&limit=100');
  expect(posts.find((p) => p.id === id)?.caption).toBe(`Edited ${tag}`);

  // Esc closes a dialog. A published post's is titled for reading, not editing.
  const details = page.getByRole('dialog', { name: 'Post details' });
  await page.getByRole('button', { name: new RegExp(`^Open post: Already out ${tag}`) }).click();
  await expect(details).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(details).toBeHidden();

  // A published delivery: nothing is offered that the service would refuse, and the dialog says why.
  await page.getByRole('button', { name: new RegExp(`^Open post: Already out ${tag}`) }).click();
  await expect(details.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  await expect(details.getByRole('button', { name: 'Save caption' })).toHaveCount(0);
  await expect(details).toContainText('Published posts stay on X; remove them there.');
  await expect(details).toContainText('This post is already published on X; make a new post instead.');
  await screenshot(page, 'posts-published');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('article').filter({ hasText: `Already out ${tag}` })).toContainText('posted');
});

interface Box {
  readonly top: number;
  readonly left: number;
  readonly bottom: number;
  readonly right: number;
}
interface El {
  readonly tagName: string;
  readonly scrollHeight: number;
  readonly clientHeight: number;
  readonly scrollWidth: number;
  readonly clientWidth: number;
  readonly className: unknown;
  readonly parentElement: El | null;
  getBoundingClientRect(): Box;
}
interface Globals {
  readonly innerWidth: number;
  readonly innerHeight: number;
  readonly document: {
    readonly scrollingElement: { scrollHeight: number; clientHeight: number };
    querySelectorAll(s: string): ArrayLike<El>;
  };
  getComputedStyle(e: El): { overflowY: string; overflowX: string };
}

/** A post to three accounts (Instagram takes media only, so it carries a picture). */
async function threeAccountPost(host: WebHost, caption: string) {
  const accounts = (await accountsOf(host)).filter((a) => a.platform !== 'youtube').slice(0, 3);
  expect(accounts).toHaveLength(3);
  await createTo(host, caption, accounts, `${dayAfter(6)}T09:00:00Z`, [await uploadPng(host)]);
  return accounts;
}

test.describe('the timeline at 1280×800', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('the page scrolls, nothing inside it does, and every chip of a 3-account post is in sight', async ({
    app: page,
    host,
  }) => {
    const tag = `timeline-${Date.now().toString(36)}`;
    // Enough posts that the timeline is longer than the window.
    for (let i = 0; i < 12; i++)
      await createPost(host, `Filler ${i} ${tag}`, `${dayAfter(8)}T1${i % 10}:00:00Z`);
    const accounts = await threeAccountPost(host, `Three ${tag}`);
    await goTo(page, 'Posts');
    // This test's 13 posts: longer than the window, so the page must scroll.
    await page.getByLabel('Search').fill(tag);
    await expect(page.getByTestId('posts-count')).toContainText('13 posts', { timeout: 20_000 });
    await expect(page.getByRole('article').first()).toBeVisible();

    const scrollers = await page.evaluate(() => {
      const g = globalThis as unknown as Globals;
      const found: string[] = [];
      for (const el of Array.from(g.document.querySelectorAll('*'))) {
        if (el.tagName === 'HTML' || el.tagName === 'BODY') continue;
        const cs = g.getComputedStyle(el);
        const y = /auto|scroll/.test(cs.overflowY) && el.scrollHeight > el.clientHeight + 1;
        const x = /auto|scroll/.test(cs.overflowX) && el.scrollWidth > el.clientWidth + 1;
        if (y || x) found.push(`${el.tagName.toLowerCase()}.${String(el.className)}`);
      }
      const doc = g.document.scrollingElement;
      return { found, pageScrolls: doc.scrollHeight > doc.clientHeight };
    });
    expect(scrollers.found).toEqual([]);
    // Not vacuous: the timeline is longer than the window, and it is the page that scrolls.
    expect(scrollers.pageScrolls).toBe(true);

    await page.getByLabel('Search').fill(`Three ${tag}`);
    const card = page.getByRole('article').filter({ hasText: `Three ${tag}` });
    await expect(card).toHaveCount(1);
    const chips = card.getByTestId('target-chip');
    await expect(chips).toHaveCount(3);
    // Each account's whole name, never cut to "Demo LinkedIn (…".
    for (const a of accounts) await expect(chips.filter({ hasText: a.name })).toHaveCount(1);
    const clipped = await chips.evaluateAll((els) => {
      const g = globalThis as unknown as Globals;
      const out: string[] = [];
      for (const chip of els as unknown as El[]) {
        const r = chip.getBoundingClientRect();
        const inside = (b: Box) =>
          r.top >= b.top - 0.5 &&
          r.left >= b.left - 0.5 &&
          r.bottom <= b.bottom + 0.5 &&
          r.right <= b.right + 0.5;
        if (!inside({ top: 0, left: 0, bottom: g.innerHeight, right: g.innerWidth }))
          out.push('outside the window');
        for (let p = chip.parentElement; p; p = p.parentElement) {
          const cs = g.getComputedStyle(p);
          if (cs.overflowX !== 'visible' || cs.overflowY !== 'visible')
            if (!inside(p.getBoundingClientRect()))
              out.push(`clipped by ${p.tagName.toLowerCase()}.${String(p.className)}`);
        }
        // The chip's own text is not cut either.
        if (chip.scrollWidth > chip.clientWidth + 1) out.push('its text overflows');
      }
      return out;
    });
    expect(clipped).toEqual([]);
    await screenshot(page, 'posts-timeline-1280');
  });
});

test('the "…" menu opens from the keyboard and runs an action', async ({ app: page, host }) => {
  const tag = `menu-${Date.now().toString(36)}`;
  await createPost(host, `Menu ${tag}`, `${dayAfter(5)}T11:00:00Z`);
  await goTo(page, 'Posts');
  await page.getByLabel('Search').fill(tag);
  const card = page.getByRole('article').filter({ hasText: `Menu ${tag}` });
  const trigger = card.getByRole('button', { name: `Actions for post: Menu ${tag}` });
  await trigger.focus();
  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu', { name: `Actions for post: Menu ${tag}` });
  await expect(menu).toBeVisible();
  await expect(trigger).toHaveAttribute('aria-expanded', 'true');
  await expect(menu.getByRole('menuitem').first()).toBeFocused();
  // Escape closes it and gives focus back to the button.
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(trigger).toBeFocused();

  // ArrowUp opens it on the last item; arrows move to "Duplicate as draft"; Enter runs it.
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem').first()).toBeFocused();
  const labels = await menu.getByRole('menuitem').allTextContents();
  const at = labels.indexOf('Duplicate as draft');
  expect(at).toBeGreaterThan(0);
  for (let i = 0; i < at; i++) await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: 'Duplicate as draft' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Duplicated as a new draft.')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('article').filter({ hasText: `Menu ${tag}` })).toHaveCount(2);
  const { posts } = await sandboxApi<{ posts: Delivery[] }>(host, '/api/cli/posts?status=draft&limit=100');
  expect(posts.filter((d) => d.caption === `Menu ${tag}`)).toHaveLength(1);
});

test('an empty filter says what matched nothing and "Clear filters" brings the posts back', async ({
  app: page,
  host,
}) => {
  const tag = `empty-${Date.now().toString(36)}`;
  await createPost(host, `Scheduled ${tag}`, `${dayAfter(5)}T12:00:00Z`);
  await goTo(page, 'Posts');
  await page.getByLabel('Status').selectOption('failed');
  await page.getByLabel('Platform').selectOption('x');
  await page.getByLabel('Search').fill(tag);
  const list = page.getByRole('region', { name: 'Post list' });
  await expect(list.getByText(`No failed posts on X matching “${tag}”`)).toBeVisible({ timeout: 20_000 });
  await expect(list).not.toContainText('Compose a post');
  await list.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page.getByLabel('Status')).toHaveValue('all');
  await expect(page.getByLabel('Platform')).toHaveValue('all');
  await expect(page.getByLabel('Search')).toHaveValue('');
  await expect(page.getByRole('article').filter({ hasText: `Scheduled ${tag}` })).toBeVisible({
    timeout: 20_000,
  });
});

test('the results of a change to many posts are one dismissible strip', async ({ app: page, host }) => {
  const tag = `strip-${Date.now().toString(36)}`;
  await createPost(host, `Strip ${tag}`, `${dayAfter(5)}T13:00:00Z`);
  await goTo(page, 'Posts');
  await page.getByLabel('Search').fill(tag);
  await page.getByRole('checkbox', { name: `Select post: Strip ${tag}` }).check();
  await page
    .getByRole('region', { name: 'Selected posts' })
    .getByRole('button', { name: 'Cancel to draft' })
    .click();
  const results = page.getByTestId('many-results');
  await expect(results).toContainText('Cancelled to draft 1 of 1 post');
  // The strip sits over the timeline: the card is still in sight beside it.
  await expect(page.getByRole('article').filter({ hasText: `Strip ${tag}` })).toBeInViewport();
  await results.getByRole('button', { name: 'Dismiss the results' }).click();
  await expect(results).toHaveCount(0);
});

for (const scheme of ['light', 'dark'] as const) {
  test(`Posts has no serious or critical axe violation, menu open (${scheme})`, async ({
    app: page,
    host,
  }) => {
    const tag = `axe-${scheme}-${Date.now().toString(36)}`;
    await page.emulateMedia({ colorScheme: scheme });
    await threeAccountPost(host, `Axe ${tag}`);
    await goTo(page, 'Posts');
    await page.getByLabel('Search').fill(tag);
    const card = page.getByRole('article').filter({ hasText: `Axe ${tag}` });
    await expect(card.getByTestId('target-chip')).toHaveCount(3, { timeout: 20_000 });
    expect(await violations(page)).toEqual([]);
    await card.getByRole('button', { name: /^Actions for post/ }).click();
    await expect(page.getByRole('menu')).toBeVisible();
    expect(await violations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await card.getByRole('button', { name: /deliveries: Axe/ }).click();
    await expect(page.getByRole('region', { name: /^Deliveries of Axe/ })).toBeVisible();
    expect(await violations(page)).toEqual([]);
    await screenshot(page, `posts-timeline-${scheme}`);
  });
}

test('the waiting notice can be dismissed while its post is still on its way', async ({
  app: page,
  host,
}) => {
  const tag = `wait-${Date.now().toString(36)}`;
  await createPost(host, `Waiting ${tag}`, `${dayAfter(5)}T14:00:00Z`);
  await goTo(page, 'Posts');
  await page.getByLabel('Search').fill(tag);
  const card = page.getByRole('article').filter({ hasText: `Waiting ${tag}` });
  await expect(card).toBeVisible({ timeout: 20_000 });
  // Slow answers: the publish waits long enough to be seen, and dismissed, on its way.
  await sandboxApi(host, '/_sandbox/faults', {
    method: 'POST',
    body: JSON.stringify({ latency_ms: 4000, paths: ['/api/cli/posts'] }),
  });
  try {
    await card.getByRole('button', { name: /^Actions for post: / }).click();
    await page.getByRole('menu').getByRole('menuitem', { name: 'Publish now' }).click();
    await card.getByRole('button', { name: 'Yes, publish now' }).click();
    const notice = page.getByRole('region', { name: /waiting to be sent/ });
    await expect(notice).toBeVisible();
    await notice.getByRole('button', { name: 'Dismiss: posts waiting to be sent' }).click();
    await expect(notice).toBeHidden();
    // Dismissing hides the notice, not the send: the post still goes out.
    await expect(page.getByText('Published now.')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole('region', { name: /waiting to be sent/ })).toBeHidden();
  } finally {
    await sandboxApi(host, '/_sandbox/faults', { method: 'POST', body: '{}' });
  }
});

/** The page's resource timings and fetch, typed here (the test tsconfig has no DOM library). */
interface ResourceGlobals {
  readonly performance: { getEntriesByType(t: 'resource'): ArrayLike<{ readonly name: string }> };
  fetch(url: string): Promise<{ text(): Promise<string> }>;
}

test('the chunks the timeline first paints with are compiled as they load (V8 compile hint)', async ({
  app: page,
}) => {
  await goTo(page, 'Posts');
  // Each chunk scripts/compile-hints.mjs names must be served, its first line the hint: a renamed or merged
  // chunk would quietly put the lazy compiling back into the first paint (docs/ui.md, "First render").
  const firstLines = await page.evaluate(async () => {
    const g = globalThis as unknown as ResourceGlobals;
    const names = Array.from(g.performance.getEntriesByType('resource'), (e) => e.name);
    const lines: Record<string, string> = {};
    for (const url of names) {
      const chunk = /\/assets\/([A-Za-z]+)-[\w-]+\.js$/.exec(url)?.[1];
      if (chunk) lines[chunk] = ((await (await g.fetch(url)).text()).split('\n', 1)[0] ?? '').slice(0, 60);
    }
    return lines;
  });
  const { COMPILE_HINT, EAGER_CHUNKS } = await import('../../scripts/compile-hints.mjs');
  const eager = Object.keys(firstLines).filter((c) => EAGER_CHUNKS.test(c));
  expect(eager.sort()).toEqual(['PostGroupParts', 'PostsScreen']);
  for (const c of eager) expect(firstLines[c], c).toBe(COMPILE_HINT);
  // Only those: every other chunk still compiles lazily.
  for (const [c, line] of Object.entries(firstLines))
    if (!EAGER_CHUNKS.test(c)) expect(line, c).not.toBe(COMPILE_HINT);
});
