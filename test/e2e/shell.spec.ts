import type { Account } from '../../src-shared/api/accounts';
import { expect, test } from './support/fixtures';
import { goTo, openConnected, screenshot } from './support/page';
import { sandboxApi, type WebHost } from './support/web-host';

/**
 * Issue 26, item 8: the app's own font (Inter) ships with it and loads from the app itself, and failure notices
 * never squeeze the sidebar.
 */

const post = (host: WebHost, path: string, body: unknown, method = 'POST') =>
  sandboxApi(host, path, { method, body: JSON.stringify(body) });

interface FontGlobals {
  document: {
    fonts: Iterable<{ family: string; status: string; weight: string }> & {
      ready: Promise<unknown>;
      check(font: string): boolean;
    };
    body: unknown;
  };
  getComputedStyle(el: unknown): { fontFamily: string };
}

test.afterEach(async ({ host }) => {
  await post(host, '/_sandbox/faults', {});
});

test('Inter is shipped: it loads from the app, the body is set in it, and no request leaves this computer', async ({
  page,
  host,
}) => {
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  await openConnected(page, await host.nextUrl());
  await goTo(page, 'Accounts');
  const font = await page.evaluate(async () => {
    const g = globalThis as unknown as FontGlobals;
    await g.document.fonts.ready;
    // check() is also true for a family no face declares, so the faces themselves are read too.
    const faces = [...g.document.fonts].filter((f) => f.family.replace(/["']/g, '') === 'Inter');
    return {
      loaded:
        g.document.fonts.check('16px Inter') &&
        g.document.fonts.check('600 16px Inter') &&
        // One variable face serves every weight the styles use.
        faces.some((f) => f.status === 'loaded' && f.weight === '100 900'),
      family: g.getComputedStyle(g.document.body).fontFamily,
    };
  });
  expect(font.family).toMatch(/^['"]?Inter['"]?,/);
  expect(font.loaded).toBe(true);
  // The font files were fetched from the app's own origin.
  const origin = new URL(host.origin).origin;
  expect(requests.filter((u) => /\.woff2?(\?|$)/.test(u)).every((u) => u.startsWith(origin))).toBe(true);
  expect(requests.some((u) => /inter-latin-wght-normal.*\.woff2$/.test(u))).toBe(true);
  const outside = requests.filter((u) => {
    if (/^(data|blob):/.test(u)) return false;
    const { hostname } = new URL(u);
    return !['127.0.0.1', 'localhost', '[::1]'].includes(hostname);
  });
  expect(outside).toEqual([]);
});

test('a failure notice and a failing service leave the sidebar its full width and height, at 1280×800 and 800×600', async ({
  app: page,
  host,
}) => {
  test.setTimeout(120_000);
  const { accounts } = await sandboxApi<{ accounts: Account[] }>(host, '/api/cli/accounts');
  const li = accounts.find((a) => a.platform === 'linkedin') as Account;
  const sidebar = page.locator('.sidebar');
  const sizes = [
    { width: 1280, height: 800 },
    { width: 800, height: 600 },
  ];
  const before: Record<number, { width: number; height: number } | null> = {};
  for (const size of sizes) {
    await page.setViewportSize(size);
    await goTo(page, 'Accounts');
    before[size.width] = await sidebar.boundingBox();
    expect(before[size.width]?.height).toBe(size.height);
  }

  // A delivery really fails (LinkedIn refuses every attempt), and the host reports it as a notice.
  await post(host, `/_sandbox/accounts/${li.id}`, { publish_failures: 3 }, 'PATCH');
  await post(host, '/api/cli/posts', {
    caption: `Sidebar notice ${Date.now().toString(36)}`,
    targets: [{ platform: 'linkedin', social_account_id: li.id }],
  });
  await post(host, '/_sandbox/clock', { advance_ms: 11 * 60_000 });
  await post(host, `/_sandbox/accounts/${li.id}`, { publish_failures: 0 }, 'PATCH');
  await page.reload();
  const notice = page
    .getByRole('status', { name: 'Failed deliveries' })
    .getByText('Delivery to LinkedIn failed');
  await expect(notice.first()).toBeVisible({ timeout: 30_000 });

  for (const size of sizes) {
    await page.setViewportSize(size);
    await goTo(page, 'Accounts');
    await expect(notice.first()).toBeVisible();
    expect(await sidebar.boundingBox()).toEqual(before[size.width]);
    // The notice sits in the main column, beside the sidebar, not under it.
    const box = await notice.first().boundingBox();
    expect(box?.x).toBeGreaterThanOrEqual(before[size.width]?.width ?? 0);
    await screenshot(page, `shell-notice-${size.width}`);

    // The service failing too: the sidebar says so and still keeps its size.
    await post(host, '/_sandbox/faults', { error_rate: 1 });
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'The service is not answering' })).toBeVisible({
      timeout: 20_000,
    });
    expect(await sidebar.boundingBox()).toEqual(before[size.width]);
    await post(host, '/_sandbox/faults', {});
  }
});
