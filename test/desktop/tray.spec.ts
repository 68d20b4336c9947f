import { expect, test } from '@playwright/test';
import { launchApp, mainView, mainWindow, tryOffline, type LaunchedApp } from './app';

let launched: LaunchedApp;
test.beforeEach(async () => {
  launched = await launchApp();
});
test.afterEach(async () => {
  await launched.close();
});

const labelsOf = (items: ReadonlyArray<{ type: string; label: string }>) =>
  items.filter((i) => i.type !== 'separator').map((i) => i.label);

test('the tray is up with its menu, and follows the connection', async () => {
  const { app, page } = launched;
  const before = await mainView(app);
  expect(before.tray?.alive).toBe(true);
  // Not connected yet: the tray asks for attention.
  expect(before.tray?.state).toBe('attention');
  expect(labelsOf(before.tray?.items ?? [])).toEqual(
    expect.arrayContaining(['Open Postdesk', 'Check for updates', 'Quit Postdesk']),
  );
  // A development run does not update itself: the item is there, disabled.
  expect(before.tray?.items.find((i) => i.label === 'Check for updates')?.enabled).toBe(false);

  await tryOffline(page);
  await expect.poll(async () => (await mainView(app)).tray?.state, { timeout: 30_000 }).not.toBe('attention');
  const after = await mainView(app);
  expect(after.tray?.items).toContainEqual({ type: 'normal', label: 'Pause executor', enabled: true });
  expect(after.tray?.items).toContainEqual({ type: 'normal', label: 'Quit Postdesk', enabled: true });
});

test('closing the window keeps Postdesk and its executor running in the tray', async () => {
  const { app, page } = launched;
  await tryOffline(page);
  await expect
    .poll(async () => (await mainView(app)).executor?.state, { timeout: 30_000 })
    .toMatch(/^(idle|running)$/);

  await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.close());
  await expect.poll(async () => (await mainWindow(app))?.visible).toBe(false);

  // Hidden, not gone: the process, the window, the tray and the executor are all still there.
  await page.waitForTimeout(1_500);
  expect(app.process().exitCode).toBeNull();
  expect(await mainWindow(app)).not.toBeNull();
  const view = await mainView(app);
  expect(view.tray?.alive).toBe(true);
  expect(view.executor?.state).toMatch(/^(idle|running)$/);
});
