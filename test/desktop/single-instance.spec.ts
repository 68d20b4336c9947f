import { spawn } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { APP_DIR } from './electron-runtime';
import { electronBinary, launchApp, mainWindow, tryOffline, type LaunchedApp } from './app';

let launched: LaunchedApp;
test.beforeEach(async () => {
  launched = await launchApp();
});
test.afterEach(async () => {
  await launched.close();
});

test('a second launch brings the first to the front, hands over its postdesk://post link and quits', async () => {
  const { app, page, env } = launched;
  await tryOffline(page);
  await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.close());
  await expect.poll(async () => (await mainWindow(app))?.visible).toBe(false);

  // The same profile (so the same single-instance lock), and a link on the command line.
  const id = 'desk-link-42';
  const second = spawn(electronBinary(), [APP_DIR, `postdesk://post/${id}`], {
    cwd: APP_DIR,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  second.stdout.on('data', (b: Buffer) => (output += b.toString()));
  second.stderr.on('data', (b: Buffer) => (output += b.toString()));
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => {
      second.kill();
      resolve(null);
    }, 30_000);
    second.on('exit', (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  expect(code, `the second launch should quit at once; it said:\n${output}`).toBe(0);

  // The first one came to the front…
  await expect.poll(async () => (await mainWindow(app))?.visible).toBe(true);
  expect((await mainWindow(app))?.minimized).toBe(false);
  // …with focus. (An X server with no window manager, as under xvfb-run, has no notion of a focused
  // window, so this part is asserted on macOS and Windows.)
  if (process.platform !== 'linux')
    await expect.poll(async () => (await mainWindow(app))?.focused).toBe(true);
  // …and shows the post the link named.
  await expect(page.getByRole('heading', { level: 1, name: 'Posts' })).toBeVisible();
  expect(decodeURIComponent(new URL(page.url()).hash)).toContain(`id=${id}`);
});
