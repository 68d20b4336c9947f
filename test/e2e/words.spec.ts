import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { dayAfter } from './support/dates';
import { SCREENS, dropFiles, goTo, screenshot } from './support/page';
import { accountsOf, createPost, uploadPng } from './support/seed';
import { sandboxApi, type WebHost } from './support/web-host';

/**
 * Issue 26, item 5: words for people. No screen shows a machine's stamp (an ISO timestamp) or an id (a UUID) in
 * its visible text, outside a details area: a `<details>` element, or one marked `data-details` (docs/ui.md).
 */
const ISO_STAMP = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-/i;

interface TextNode {
  textContent: string | null;
  parentElement: {
    closest(s: string): unknown;
    checkVisibility(o: { checkOpacity: boolean; checkVisibilityCSS: boolean }): boolean;
  } | null;
}
interface Walker {
  document: {
    body: unknown;
    createTreeWalker(root: unknown, what: number): { nextNode(): TextNode | null };
  };
}

/** The visible text outside details areas that shows a stamp or an id. */
async function machineWords(page: Page): Promise<string[]> {
  const found = await page.evaluate(
    ({ stamp, uuid }) => {
      const g = globalThis as unknown as Walker;
      const walker = g.document.createTreeWalker(g.document.body, 4 /* NodeFilter.SHOW_TEXT */);
      const out: string[] = [];
      const re = [new RegExp(stamp), new RegExp(uuid, 'i')];
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const text = n.textContent ?? '';
        const el = n.parentElement;
        if (!el || !re.some((r) => r.test(text))) continue;
        if (el.closest('details, [data-details], script, style, option, datalist')) continue;
        if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
        out.push(text.trim().slice(0, 160));
      }
      return out;
    },
    { stamp: ISO_STAMP.source, uuid: UUID.source },
  );
  return found;
}

/**
 * Captions are the user's (or their agent's) own words, shown as written: an agent of the other flows captions
 * its drafts with the run's time. The text of a caption is not the app's.
 */
async function captionsOf(host: WebHost): Promise<string[]> {
  const out: string[] = [];
  for (const status of ['draft', 'scheduled', 'posted', 'failed']) {
    const { posts } = await sandboxApi<{ posts: { caption: string | null }[] }>(
      host,
      `/api/cli/posts?status=${status}&limit=100`,
    );
    for (const p of posts) if (p.caption) out.push(p.caption);
  }
  return out;
}

test('no screen shows a raw timestamp or an id outside its details, after posts, a run and an import', async ({
  app: page,
  host,
}) => {
  test.setTimeout(180_000);
  const tag = `words-${Date.now().toString(36)}`;
  const accounts = await accountsOf(host);
  const [a, b] = accounts;
  await createPost(host, `Words picture ${tag}`, [a!, b!], `${dayAfter(1)}T10:00:00Z`, [
    await uploadPng(host),
  ]);
  await createPost(host, `Words later ${tag}`, [a!], `${dayAfter(2)}T16:30:00Z`);
  await createPost(host, `Words draft ${tag}`, [b!]);

  // A run of an automation, to its end.
  await goTo(page, 'Automations');
  const list = page.getByRole('list', { name: 'Automations list' });
  const drafts = list.getByRole('listitem').filter({ hasText: 'drafts' }).first();
  const name = (await drafts.locator('.automation__name').textContent()) ?? '';
  await list.getByRole('button', { name: `Run now: ${name}` }).click();
  const detail = page.getByRole('region', { name: 'Run detail' });
  await expect(detail.getByRole('status', { name: 'Run completed' })).toBeVisible({ timeout: 60_000 });

  // An import of two posts.
  const linkedin = accounts.find((x) => x.platform === 'linkedin')!;
  const csv = `caption,targets,scheduled_at,action\n"Import one ${tag}",linkedin:${linkedin.id},${dayAfter(4)}T09:00:00Z,\n"Import two ${tag}",linkedin:${linkedin.id},${dayAfter(4)}T11:00:00Z,\n`;
  await goTo(page, 'Bulk');
  await dropFiles(page, page.getByRole('group', { name: 'CSV drop zone' }), [
    { name: `words-${tag}.csv`, type: 'text/csv', base64: Buffer.from(csv).toString('base64') },
  ]);
  await page.getByRole('button', { name: /^Submit 2 posts/ }).click();
  await expect(page.getByText(/Submitted 1 batch: 2 created/)).toBeVisible({ timeout: 30_000 });

  const offenders: { screen: string; text: string }[] = [];
  const check = async (screen: string) => {
    for (const text of await machineWords(page)) offenders.push({ screen, text });
  };
  await check('Bulk (after the import)');
  for (const screen of SCREENS) {
    await goTo(page, screen);
    // Let the screen's data arrive: no loading spinner left.
    await expect(page.locator('.main .spinner, .main [aria-busy="true"]')).toHaveCount(0, {
      timeout: 15_000,
    });
    await page.waitForTimeout(500);
    await check(screen);
    await screenshot(page, `words-${screen.toLowerCase().replaceAll(' ', '-')}`);
  }
  // Compose with a time picked: the time in words, the stamp the service gets only in its details.
  await goTo(page, 'Compose');
  await page.getByRole('radio', { name: 'Schedule' }).click();
  await page.getByLabel(/Date and time/).fill(`${dayAfter(3)}T10:00`);
  await expect(page.locator('#compose-when-utc')).toContainText('Goes out');
  await check('Compose (scheduling)');
  // The run's detail.
  await goTo(page, 'Automations');
  await page.getByRole('list', { name: 'Run history' }).getByRole('listitem').first().click();
  await page.waitForTimeout(500);
  await check('Automations (a run)');
  const captions = await captionsOf(host);
  expect(offenders.filter((o) => !captions.some((c) => c.includes(o.text)))).toEqual([]);
});
