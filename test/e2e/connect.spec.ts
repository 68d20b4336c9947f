import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { expect, test } from '@playwright/test';
import { screenshot } from './support/page';
import { pageState, recordFrames } from './support/secrets-probe';
import { startWebHost, type WebHost } from './support/web-host';

// Connect is what a fresh session shows, so these flows get a host of their own.
let host: WebHost;
test.beforeEach(async () => {
  host = await startWebHost();
});
test.afterEach(async () => {
  await host.stop();
});

test('Try offline starts the sandbox and opens the app', async ({ page }) => {
  await page.goto(await host.nextUrl());
  await expect(page.getByRole('heading', { name: 'Welcome to Postdesk' })).toBeVisible();
  await screenshot(page, 'connect');
  await page.getByRole('button', { name: 'Try offline' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(page.getByText('Offline sandbox')).toBeVisible();
  // The link's one-time code leaves the address bar; the page holds the session secret instead.
  expect(page.url()).not.toContain('code=');
  // A reload keeps the session (sessionStorage), with no code in the address.
  await page.reload();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await page.getByRole('link', { name: 'Accounts' }).click();
  await expect(page.getByRole('list', { name: 'Accounts' }).getByRole('listitem')).not.toHaveCount(0);
  await screenshot(page, 'connect-offline-accounts');

  // The theme follows the OS: light, then dark when the system says so.
  const background = () =>
    page
      .locator('body')
      .evaluate(
        (b) =>
          (
            globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }
          ).getComputedStyle(b).backgroundColor,
      );
  await page.emulateMedia({ colorScheme: 'light' });
  await expect.poll(background).toBe('rgb(247, 247, 248)');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(background).toBe('rgb(17, 17, 20)');
  await screenshot(page, 'accounts-dark');
});

test('a key typed into Connect is checked, and never kept in the page nor echoed over the bridge', async ({
  page,
}) => {
  const frames = recordFrames(page);
  await page.goto(await host.nextUrl());
  const url = page.getByLabel('Service URL');
  const key = page.getByLabel('API key');

  // A wrong key: the service refuses it and Connect says why.
  const wrong = `pd_live_${randomBytes(18).toString('hex')}`;
  await url.fill(host.sandboxUrl);
  await key.fill(wrong);
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(key).toHaveValue('');
  await expect(page.getByRole('alert')).toContainText('rejected this API key');

  // The right key: connected, and stored by the host (Settings says so without showing it).
  await key.fill(host.apiKey);
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByText('Stored (write-only: it is never shown again)')).toBeVisible();
  await screenshot(page, 'connect-key');

  const state = await pageState(page);
  for (const secret of [wrong, host.apiKey]) {
    expect(state).not.toContain(secret);
    const carrying = frames.filter((f) => f.text.includes(secret));
    // Exactly one frame ever holds it: the page's own connect call. No answer or event echoes it.
    expect(carrying).toHaveLength(1);
    expect(carrying[0]?.dir).toBe('sent');
    expect(JSON.parse(carrying[0]?.text ?? '{}')).toMatchObject({
      t: 'invoke',
      channel: 'connection:connect',
    });
  }
  expect(frames.filter((f) => f.dir === 'received').length).toBeGreaterThan(0);
});

test('a link opens one page: another browser with the same link is turned away, the next printed link works', async ({
  browser,
}) => {
  const link = await host.nextUrl();
  const first = await browser.newContext();
  const page = await first.newPage();
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Welcome to Postdesk' })).toBeVisible();

  const second = await browser.newContext();
  const other = await second.newPage();
  await other.goto(link);
  await expect(other.getByRole('heading', { name: 'This link was already used' })).toBeVisible();
  await screenshot(other, 'connect-used-link');
  await other.goto(await host.nextUrl());
  await expect(other.getByRole('heading', { name: 'Welcome to Postdesk' })).toBeVisible();
  await first.close();
  await second.close();
});

test('a page whose session the host no longer accepts says it is not attached and what to do, and stops knocking', async ({
  page,
}) => {
  await page.goto(await host.nextUrl());
  await expect(page.getByRole('heading', { name: 'Welcome to Postdesk' })).toBeVisible();
  // As after a restart of the host: this tab keeps a secret the host no longer knows.
  await page.evaluate(() => {
    (
      globalThis as unknown as { sessionStorage: { setItem(k: string, v: string): void } }
    ).sessionStorage.setItem('postdesk.session-secret', 'x'.repeat(43));
  });
  let sockets = 0;
  page.on('websocket', () => void (sockets += 1));
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Postdesk is not attached' })).toBeVisible();
  await expect(page.getByText('Open the newest link shown in the terminal')).toBeVisible();
  await expect(page.getByText('Welcome to Postdesk')).toHaveCount(0);
  await screenshot(page, 'connect-session-ended');
  const seen = sockets;
  await page.waitForTimeout(4_000);
  expect(sockets - seen).toBe(0);
});

test('connecting to an address where nothing listens is answered within seconds, in words', async ({
  page,
}) => {
  // A port that was free a moment ago: nothing listens there.
  const port = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
  // A page may connect only to an address the person chose outside it: here with `postdesk config set`.
  await host.cli(['config', 'set', 'baseUrl', `http://127.0.0.1:${port}`]);
  await page.goto(await host.nextUrl());
  await page.getByLabel('Service URL').fill(`http://127.0.0.1:${port}`);
  await page.getByLabel('API key').fill(`pd_live_${randomBytes(18).toString('hex')}`);
  const started = Date.now();
  await page.getByRole('button', { name: 'Connect' }).click();
  const alert = page.getByRole('alert');
  await expect(alert).toContainText(`Nothing answered at 127.0.0.1:${port}`, { timeout: 10_000 });
  expect(Date.now() - started).toBeLessThan(3_000);
  await expect(alert).not.toContainText('(connect)');
  await expect(alert).not.toContainText('ECONNREFUSED');
  await screenshot(page, 'connect-closed-port');
  await host.cli(['config', 'unset', 'baseUrl']); // the host is shared by the worker's other tests
});
