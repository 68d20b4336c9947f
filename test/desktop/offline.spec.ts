import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { APP_DIR } from './electron-runtime';
import { launchApp, tryOffline, type LaunchedApp } from './app';

let launched: LaunchedApp;
test.beforeEach(async () => {
  launched = await launchApp();
});
test.afterEach(async () => {
  await launched.close();
});

test('Try offline starts the sandbox inside the app and shows its accounts', async () => {
  const { page } = launched;
  await tryOffline(page);
  await expect(page.getByText('Offline sandbox')).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Accounts' }).click();
  await expect(page.getByRole('list', { name: 'Accounts' }).getByRole('listitem')).not.toHaveCount(0);
});

/** The page's DOM, typed here: the test tsconfig has no DOM library. */
interface DropGlobals {
  document: {
    createElement(tag: 'input'): { type: string; id: string; hidden: boolean; files: ArrayLike<unknown> };
    getElementById(id: string): { files: ArrayLike<unknown> } | null;
    body: { append(node: unknown): void };
  };
  DataTransfer: new () => { items: { add(file: unknown): unknown } };
  File: new (parts: Uint8Array[], name: string, options: { type: string }) => unknown;
}

test('a file dropped on Compose goes through the real preload (webUtils.getPathForFile) and is checked', async () => {
  const { page } = launched;
  await tryOffline(page);
  const dir = mkdtempSync(join(tmpdir(), 'postdesk-desktop-drop-'));
  try {
    // A real 512×512 PNG on disk (the app icon under another name).
    const file = join(dir, 'desk-drop.png');
    copyFileSync(join(APP_DIR, 'resources', 'icon.png'), file);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Compose' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Compose' })).toBeVisible();

    // A File backed by the file on disk, as the OS hands one to a drop: picked through a file input.
    await page.evaluate(() => {
      const g = globalThis as unknown as DropGlobals;
      const input = g.document.createElement('input');
      input.type = 'file';
      input.id = 'desktop-test-pick';
      input.hidden = true;
      g.document.body.append(input);
    });
    await page.setInputFiles('#desktop-test-pick', file);
    // Dropped along with a File made in the page, which has no path on this computer.
    const dataTransfer = await page.evaluateHandle(() => {
      const g = globalThis as unknown as DropGlobals;
      const dt = new g.DataTransfer();
      const picked = g.document.getElementById('desktop-test-pick')?.files[0];
      dt.items.add(picked);
      dt.items.add(
        new g.File([new Uint8Array([137, 80, 78, 71])], 'made-in-page.png', { type: 'image/png' }),
      );
      return dt;
    });
    const zone = page.getByRole('group', { name: 'Media drop zone' });
    await zone.dispatchEvent('dragover', { dataTransfer });
    await zone.dispatchEvent('drop', { dataTransfer });

    // The preload found its path; main registered and checked the file (its size read from the file),
    // and it uploaded to the sandbox.
    const card = page
      .getByRole('list', { name: 'Attached media' })
      .getByRole('listitem', { name: 'desk-drop.png' });
    await expect(card).toContainText('512×512', { timeout: 30_000 });
    await expect(card).toContainText('Uploaded', { timeout: 30_000 });
    // The page-made File has no path: the preload skipped it, with a reason a person can read.
    await expect(page.getByRole('status').filter({ hasText: 'Some files were not added' })).toContainText(
      'made-in-page.png: not a file on this computer',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
