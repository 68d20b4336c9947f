import { expect, test, type FileChooser, type Page } from '@playwright/test';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeMediaFiles } from './support/media-files';
import { screenshot } from './support/page';
import { startWebHost, type WebHost } from './support/web-host';

/**
 * Issue 17, item 17: a keyboard-only journey, with no mouse. Connect offline, compose with a file picked in the
 * file dialog, schedule, find the post, reschedule it, open a run's detail. At every stop the focused element
 * shows that it is (a visible outline or ring), and after each dialog focus lands where the person was.
 */

let host: WebHost;
test.beforeAll(async () => {
  host = await startWebHost();
});
test.afterAll(async () => {
  await host?.stop();
});

interface Focused {
  readonly name: string;
  readonly tag: string;
  readonly visible: boolean;
}

interface El {
  tagName: string;
  textContent: string | null;
  getAttribute(n: string): string | null;
  matches(s: string): boolean;
  labels?: ArrayLike<{ textContent: string | null }> | null;
}
interface G {
  document: { activeElement: El | null };
  getComputedStyle(e: El): { outlineStyle: string; outlineWidth: string; boxShadow: string };
}

/** What has focus, by the name a person hears, and whether it shows it. */
const focused = (page: Page): Promise<Focused> =>
  page.evaluate(() => {
    const g = globalThis as unknown as G;
    const el = g.document.activeElement;
    if (!el) return { name: '', tag: '', visible: false };
    const label = el.labels?.[0]?.textContent ?? '';
    const name = (el.getAttribute('aria-label') ?? label ?? '') || (el.textContent ?? '');
    const s = g.getComputedStyle(el);
    const ring = (s.outlineStyle !== 'none' && s.outlineWidth !== '0px') || s.boxShadow !== 'none';
    return {
      name: name.trim().replace(/\s+/g, ' '),
      tag: el.tagName,
      visible: (el.matches(':focus-visible') || el.matches(':focus-within')) && ring,
    };
  });

/** Presses Tab (Shift+Tab with `back`) until the focused element's name matches; each stop must show its focus. */
async function tabTo(page: Page, name: RegExp, opts: { back?: boolean; max?: number } = {}): Promise<void> {
  for (let i = 0; i < (opts.max ?? 60); i++) {
    await page.keyboard.press(opts.back ? 'Shift+Tab' : 'Tab');
    const f = await focused(page);
    if (f.tag !== 'BODY' && f.tag !== 'MAIN') expect(f.visible, `focus shows on “${f.name}”`).toBe(true);
    if (name.test(f.name)) return;
  }
  throw new Error(`no focusable element named ${name} within reach of Tab`);
}

test('keyboard only: connect offline, compose with a picked file, schedule, find it, reschedule it, open a run', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const dir = await mkdtemp(join(tmpdir(), 'postdesk-e2e-keys-'));
  const { png } = await makeMediaFiles();
  const file = join(dir, png.name);
  await writeFile(file, Buffer.from(png.base64, 'base64'));
  const caption = `Keys only ${Date.now().toString(36)}`;
  try {
    // Listening from the start: the browser hands file dialogs to the test only once it is asked to.
    const chooser = new Promise<FileChooser>((resolve) => page.once('filechooser', resolve));
    await page.goto(await host.nextUrl());
    await expect(page.getByRole('heading', { name: 'Welcome to Postdesk' })).toBeVisible();
    await tabTo(page, /^Try offline$/);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();

    // Compose: the shortcut, then an account (the accounts come first, along the top), the caption, a file from
    // the file dialog, Schedule.
    await page.keyboard.press('g');
    await page.keyboard.press('c');
    await expect(page.getByRole('heading', { level: 1, name: 'Compose' })).toBeVisible();
    // The accounts and the screen's own state are in before the first key (a pick made earlier can be undone).
    await expect(page.getByRole('region', { name: 'Accounts' }).getByText(/^Updated /)).toBeVisible();
    await tabTo(page, /Demo X/);
    await page.keyboard.press('Space');
    await expect(page.getByRole('checkbox', { name: /Demo X/ })).toBeChecked();
    await tabTo(page, /^Caption$/);
    await page.keyboard.type(caption);
    await tabTo(page, /^Choose files$/);
    await page.keyboard.press('Enter');
    await (await chooser).setFiles(file);
    await expect(page.getByRole('list', { name: 'Attached media' }).getByRole('listitem')).toContainText(
      'Uploaded',
      { timeout: 30_000 },
    );
    await tabTo(page, /^Publish now$/);
    await page.keyboard.press('ArrowRight'); // the radio group: Publish now → Schedule
    await expect(page.getByRole('radio', { name: 'Schedule' })).toBeChecked();
    await screenshot(page, 'keyboard-compose');
    // The date field holds the next full hour already: on to the button.
    await tabTo(page, /^Schedule$/);
    expect((await focused(page)).tag).toBe('BUTTON');
    await page.keyboard.press('Enter');

    // Posts: find it, open it, reschedule it a month later.
    await expect(page.getByRole('heading', { level: 1, name: 'Posts' })).toBeVisible();
    await tabTo(page, /^Search$/);
    await page.keyboard.type(caption);
    await expect(page.getByRole('article').filter({ hasText: caption })).toHaveCount(1);
    await tabTo(page, new RegExp(`^Edit post: ${caption}`));
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Edit post' });
    await expect(dialog).toBeVisible();
    // Focus went into the dialog.
    expect(
      await dialog.evaluate((d) =>
        (d as unknown as { contains(n: unknown): boolean }).contains(
          (globalThis as unknown as G).document.activeElement,
        ),
      ),
    ).toBe(true);
    await tabTo(page, /^Reschedule to/);
    await page.keyboard.press('ArrowUp'); // its first part, the month: one month later
    await tabTo(page, /^Reschedule$/);
    await screenshot(page, 'keyboard-reschedule');
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('status').filter({ hasText: 'Scheduled for' }).last()).toBeVisible();
    // After the dialog, focus is back where the person was: the row's Edit button.
    const back = await focused(page);
    expect(back.name).toMatch(new RegExp(`^Edit post: ${caption}`));
    expect(back.visible).toBe(true);

    // Esc closes a dialog and gives focus back too.
    await page.keyboard.press('Enter');
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    expect((await focused(page)).name).toMatch(new RegExp(`^Edit post: ${caption}`));

    // A run's detail: start one, then open it from the list.
    await page.keyboard.press('g');
    await page.keyboard.press('r');
    await expect(page.getByRole('heading', { level: 1, name: 'Automations' })).toBeVisible();
    await tabTo(page, /^Run now: Hourly tip clip$/);
    await page.keyboard.press('Enter');
    const detail = page.getByRole('region', { name: 'Run detail' });
    await expect(detail.getByRole('status', { name: 'Run completed' })).toBeVisible({ timeout: 60_000 });
    await tabTo(page, /^Hourly tip clip/);
    await page.keyboard.press('Enter');
    await expect(detail.getByRole('heading', { name: 'Hourly tip clip' })).toBeVisible();
    await screenshot(page, 'keyboard-run');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
