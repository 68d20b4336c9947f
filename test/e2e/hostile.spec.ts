import { expect, test, type Page } from '@playwright/test';
import type { Account } from '../../src-shared/api/accounts';
import { dayAfter } from './support/dates';
import { goTo, screenshot } from './support/page';
import { HOSTILE_URLS, MARK, startHostileService, type HostileService } from './support/hostile-service';
import { sandboxApi, startWebHost, type WebHost } from './support/web-host';

/**
 * Issue 17, item 18: a service that answers hostile content (HTML, `javascript:`/`data:`/`file:` links, bidi
 * overrides, ANSI escapes, a caption of one endless word) runs no script on any screen, links only https
 * URLs on the allowlist, shows names' direction overrides instead of obeying them, and wraps.
 */

let host: WebHost;
let hostile: HostileService;
test.beforeAll(async () => {
  host = await startWebHost();
  hostile = await startHostileService(host.sandboxUrl);
});
test.afterAll(async () => {
  await hostile?.close();
  await host?.stop();
});

interface PwnGlobals {
  __pwned?: unknown;
  document: { querySelectorAll(s: string): ArrayLike<{ getAttribute(n: string): string | null }> };
}

/** Nothing ran, nothing dangerous became a link or an image, on the screen as it stands. */
async function inert(page: Page, where: string, dialogs: string[]): Promise<void> {
  const found = await page.evaluate(() => {
    const g = globalThis as unknown as PwnGlobals;
    const hrefs = Array.from(g.document.querySelectorAll('a[href]')).map((a) => a.getAttribute('href') ?? '');
    const srcs = Array.from(g.document.querySelectorAll('img[src], iframe, object, embed')).map(
      (e) => e.getAttribute('src') ?? '',
    );
    return {
      pwned: g.__pwned ?? null,
      hrefs,
      srcs,
      scripts: g.document.querySelectorAll('body script').length,
    };
  });
  expect(found.pwned, where).toBeNull();
  expect(dialogs, where).toEqual([]);
  expect(found.scripts, where).toBe(0);
  for (const href of found.hrefs) {
    // In-app routes, or https on the allowlist; never a script, data, a file or another host.
    expect(href, where).toMatch(
      /^(#\/|#main$|https:\/\/([a-z0-9-]+\.)*(tiktok\.com|instagram\.com|linkedin\.com|x\.com|dev\.to|hashnode\.(com|dev)|postdesk\.app|youtube\.com)\/)/,
    );
  }
  for (const src of found.srcs) expect(src, where).not.toMatch(/evil|^x$|javascript:|data:text/);
}

test('a hostile service runs no script on any screen; its links, names and captions stay inert', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  const tag = `${MARK}-${Date.now().toString(36)}`;
  const { accounts } = await sandboxApi<{ accounts: Account[] }>(host, '/api/cli/accounts');
  const x = accounts.find((a) => a.platform === 'x');
  for (let i = 0; i < HOSTILE_URLS.length; i++) {
    await sandboxApi(host, '/api/cli/posts', {
      method: 'POST',
      body: JSON.stringify({
        caption: `${tag} #${i}`,
        targets: [{ social_account_id: x?.id, platform: 'x' }],
        scheduled_at: `${dayAfter(2 + i)}T10:00:00Z`,
      }),
    });
  }
  await sandboxApi(host, '/api/cli/articles', {
    method: 'POST',
    body: JSON.stringify({
      title: `Article ${tag}`,
      body_markdown: 'plain',
      destinations: ['devto'],
      action: 'publish',
    }),
  });

  // Connect to the hostile service as a person would: its address chosen outside the page (this host has
  // no terminal to confirm it in), then Connect.
  await host.cli(['config', 'set', 'baseUrl', hostile.url]);
  await page.goto(await host.nextUrl());
  await page.getByLabel('Service URL').fill(hostile.url);
  await page.getByLabel('API key').fill(host.apiKey);
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();

  // Accounts: a name's direction override is shown, not obeyed; its markup is text.
  await goTo(page, 'Accounts');
  const names = page.getByRole('list', { name: 'Accounts' });
  await expect(names).toContainText('invoice⟨RLO⟩gpj.exe');
  await expect(names).toContainText('<img src=x onerror=');
  await inert(page, 'Accounts', dialogs);
  await screenshot(page, 'hostile-accounts');

  // Posts: every published link but the allowlisted https one is text; captions wrap in the dialog.
  await goTo(page, 'Posts');
  await page.getByRole('button', { name: 'Refresh' }).click();
  await page.getByLabel('Search').fill(tag);
  await expect(page.getByRole('article').filter({ hasText: tag })).toHaveCount(HOSTILE_URLS.length, {
    timeout: 20_000,
  });
  // A caption's direction override is shown, not obeyed: it cannot make a name read as another.
  await expect(page.getByRole('article').filter({ hasText: `${tag} #0` })).toContainText(
    'invoice⟨RLO⟩gpj.exe',
  );
  await inert(page, 'Posts', dialogs);
  const linked: string[] = [];
  for (let i = 0; i < HOSTILE_URLS.length; i++) {
    await page.getByRole('button', { name: new RegExp(`^Edit post: ${tag} #${i}`) }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit post' });
    await expect(dialog).toBeVisible();
    const link = dialog.getByRole('link', { name: /^Open on / });
    if ((await link.count()) > 0) linked.push((await link.getAttribute('href')) ?? '');
    else await expect(dialog.getByText('Published at')).toBeVisible();
    // The caption's endless word wraps inside the dialog instead of widening it.
    const caption = dialog.getByLabel('Caption');
    const fits = await caption.evaluate((el) => {
      const e = el as unknown as { scrollWidth: number; clientWidth: number };
      return e.scrollWidth <= e.clientWidth + 1;
    });
    expect(fits).toBe(true);
    const overflow = await dialog.evaluate((el) => {
      const e = el as unknown as { scrollWidth: number; clientWidth: number };
      return e.scrollWidth - e.clientWidth;
    });
    expect(overflow).toBeLessThanOrEqual(1);
    await inert(page, `Post dialog #${i}`, dialogs);
    if (i === 0) await screenshot(page, 'hostile-post-dialog');
    // A middle click on the published address opens nothing unless it is an allowed link.
    const text = dialog.locator('.post-dialog__url');
    const before = context.pages().length;
    await text.click({ button: 'middle' });
    await page.waitForTimeout(300);
    if ((await link.count()) === 0) expect(context.pages().length).toBe(before);
    for (const p of context.pages()) if (p !== page) await p.close();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  }
  expect(linked).toEqual(['https://www.tiktok.com/@sandbox/video/2']);

  for (const screen of ['Compose', 'Calendar', 'Analytics', 'Automations', 'Settings']) {
    await goTo(page, screen);
    await page.waitForTimeout(500);
    await inert(page, screen, dialogs);
  }

  // Articles: a `javascript:` result and the Markdown's links are text; its table renders; raw HTML does not.
  await goTo(page, 'Articles');
  await page.getByRole('button', { name: new RegExp(`Article ${tag}`) }).click();
  const view = page.getByRole('article', { name: new RegExp(`Article ${tag}`) });
  await expect(view.getByRole('listitem', { name: 'DEV' })).toContainText('javascript:window.__pwned=31');
  await expect(view.getByRole('listitem', { name: 'DEV' }).getByRole('link')).toHaveCount(0);
  await expect(view.getByRole('link', { name: 'fine' })).toHaveAttribute('href', 'https://dev.to/ok');
  await expect(view.getByRole('link', { name: 'run me' })).toHaveCount(0);
  await expect(view.getByRole('table')).toContainText('invoice');
  await inert(page, 'Articles', dialogs);
  await screenshot(page, 'hostile-article');

  // Skills: the same Markdown, and a hostile name.
  await goTo(page, 'Skills');
  await expect(page.getByRole('list', { name: 'Skills' })).toContainText('invoice⟨RLO⟩gpj.exe');
  await inert(page, 'Skills', dialogs);
  await screenshot(page, 'hostile-skills');
});
