import { expect, type Locator, type Page } from '@playwright/test';
import { mkdir } from 'node:fs/promises';
import type { TestFile } from './media-files';

/** The page's DOM constructors, typed locally: the test tsconfig has no DOM library. */
interface PageGlobals {
  DataTransfer: new () => { items: { add(file: unknown): unknown } };
  File: new (parts: Uint8Array[], name: string, options: { type: string }) => unknown;
  atob(data: string): string;
}

/** Drops files on a drop zone as a user would: a `drop` event whose DataTransfer holds File objects built in the page. */
export async function dropFiles(page: Page, target: Locator, files: readonly TestFile[]): Promise<void> {
  const dataTransfer = await page.evaluateHandle((list) => {
    const g = globalThis as unknown as PageGlobals;
    const dt = new g.DataTransfer();
    for (const f of list) {
      const bin = g.atob(f.base64);
      const bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      dt.items.add(new g.File([bytes], f.name, { type: f.type }));
    }
    return dt;
  }, files);
  await target.dispatchEvent('dragover', { dataTransfer });
  await target.dispatchEvent('drop', { dataTransfer });
}

/** Opens the app and connects to the offline sandbox, unless this host's session is connected already. */
export async function openConnected(page: Page, url: string): Promise<void> {
  await page.goto(url);
  const nav = page.getByRole('navigation', { name: 'Main' });
  const offline = page.getByRole('button', { name: 'Try offline' });
  await expect(nav.or(offline)).toBeVisible();
  if (await offline.isVisible()) await offline.click();
  await expect(nav).toBeVisible();
}

/** Every screen of the main navigation, in its order: the walks over all screens (a11y, 800×600) cover these. */
export const SCREENS = [
  'Home',
  'Compose',
  'Posts',
  'Queue',
  'Calendar',
  'Bulk',
  'Articles',
  'Analytics',
  'Accounts',
  'Automations',
  'Inbox',
  'Skills',
  'Settings',
] as const;

export async function goTo(page: Page, label: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label }).click();
  await expect(page.getByRole('heading', { level: 1, name: label })).toBeVisible();
}

interface StyledElement {
  style: { height: string; overflow: string; minHeight: string };
}
interface DocGlobals {
  document: { querySelectorAll(s: string): ArrayLike<StyledElement> };
}

/**
 * Every flow leaves a picture of where it ended, for a person to look at. The app scrolls inside its
 * main column, so for the picture the column is let out to its full height, then put back.
 */
export async function screenshot(page: Page, flow: string): Promise<void> {
  await mkdir('test-results/screens', { recursive: true });
  const sel = 'html, body, #root, .shell, .shell__column, .main';
  await page.evaluate((s) => {
    for (const el of Array.from((globalThis as unknown as DocGlobals).document.querySelectorAll(s))) {
      el.style.height = 'auto';
      el.style.minHeight = '100vh';
      el.style.overflow = 'visible';
    }
  }, sel);
  await page.screenshot({ path: `test-results/screens/${flow}.png`, fullPage: true, animations: 'disabled' });
  await page.evaluate((s) => {
    for (const el of Array.from((globalThis as unknown as DocGlobals).document.querySelectorAll(s))) {
      el.style.height = '';
      el.style.minHeight = '';
      el.style.overflow = '';
    }
  }, sel);
}
