import type { Page } from '@playwright/test';
import { mkdir, stat } from 'node:fs/promises';
import { expect, test } from './support/fixtures';

/**
 * Issue 26, "how it must show it works": every screen of the main navigation, in light and dark, at 1280×800 and
 * 800×600, saved under test-results/screens/ for a person to look at. At 1280×800 the screens whose content is a
 * list or a grid (Bulk, Calendar) neither overflow sideways nor hold a box that scrolls inside the page.
 *
 * `UPDATE_DOCS_IMAGES=1 npx playwright test test/e2e/screens.spec.ts` (after `npm run build:web`) also copies the
 * main screens at 1280×800, light, to docs/images/, as docs/ui.md shows them.
 */

const SIZES = [
  { width: 1280, height: 800 },
  { width: 800, height: 600 },
] as const;

/** The screens docs/ui.md shows, by their label in the navigation. */
const DOCS_SCREENS = [
  'Home',
  'Compose',
  'Posts',
  'Queue',
  'Calendar',
  'Inbox',
  'Analytics',
  'AI assistant',
] as const;
/** Checked for inner scroll boxes and sideways overflow at 1280×800. */
const NO_INNER_SCROLL = ['Bulk', 'Calendar'];
const DOCS_IMAGE_MAX_BYTES = 150 * 1024;

const slug = (label: string) => label.toLowerCase().replaceAll(' ', '-');

// The light and the dark walk share nothing but the worker's host: each may run on its own worker (and host), so
// that they do not hold one worker for both, one after the other.
test.describe.configure({ mode: 'parallel' });

interface El {
  readonly scrollWidth: number;
  readonly clientWidth: number;
  readonly scrollHeight: number;
  readonly clientHeight: number;
  readonly className: unknown;
  readonly tagName: string;
  getAttribute(name: string): string | null;
}
interface Globals {
  document: { querySelector(s: string): El | null; querySelectorAll(s: string): ArrayLike<El> };
  getComputedStyle(el: El): { overflowX: string; overflowY: string };
}

/** Elements inside the main column that scroll on their own, and whether the column overflows sideways. */
async function scrollBoxes(page: Page): Promise<{ sideways: boolean; inner: string[] }> {
  return page.evaluate(() => {
    const g = globalThis as unknown as Globals;
    const main = g.document.querySelector('.main');
    const scrolls = (v: string) => v === 'auto' || v === 'scroll';
    const inner: string[] = [];
    for (const el of Array.from(g.document.querySelectorAll('.main *'))) {
      const s = g.getComputedStyle(el);
      const down = scrolls(s.overflowY) && el.scrollHeight > el.clientHeight + 1;
      const across = scrolls(s.overflowX) && el.scrollWidth > el.clientWidth + 1;
      if (down || across) {
        const name = el.getAttribute('aria-label') ?? (typeof el.className === 'string' ? el.className : '');
        inner.push(`${el.tagName.toLowerCase()}.${name} (${down ? 'down' : 'across'})`);
      }
    }
    return { sideways: main ? main.scrollWidth > main.clientWidth + 1 : false, inner };
  });
}

/** The labels of the main navigation, in its order: every screen. */
async function screens(page: Page): Promise<string[]> {
  return page.getByRole('navigation', { name: 'Main' }).locator('.nav-link__label').allInnerTexts();
}

async function open(page: Page, label: string): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: label, exact: false })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: label })).toBeVisible();
  // Loaded, not loading: the picture is of the screen a person reads.
  await expect(page.locator('.main .spinner, .main [aria-busy="true"]')).toHaveCount(0, { timeout: 20_000 });
  await expect(page.getByRole('status').filter({ hasText: /^(Loading|Checking)/ })).toHaveCount(0, {
    timeout: 20_000,
  });
  await page.evaluate(
    () =>
      (globalThis as unknown as { document: { fonts: { ready: Promise<unknown> } } }).document.fonts.ready,
  );
}

for (const scheme of ['light', 'dark'] as const) {
  test(`every screen at 1280×800 and 800×600 (${scheme})`, async ({ app: page }) => {
    test.setTimeout(240_000);
    await page.emulateMedia({ colorScheme: scheme });
    await mkdir('test-results/screens', { recursive: true });
    const labels = await screens(page);
    expect(labels.length).toBeGreaterThanOrEqual(14);
    const problems: Record<string, unknown> = {};
    for (const size of SIZES) {
      await page.setViewportSize(size);
      for (const label of labels) {
        await open(page, label);
        const name = `screen-${slug(label)}-${size.width}x${size.height}-${scheme}`;
        const path = `test-results/screens/${name}.png`;
        await page.screenshot({ path, animations: 'disabled' });
        if (size.width === 1280 && NO_INNER_SCROLL.includes(label)) {
          const found = await scrollBoxes(page);
          if (found.sideways || found.inner.length > 0) problems[`${label} ${size.width}`] = found;
        }
        if (process.env.UPDATE_DOCS_IMAGES && size.width === 1280 && scheme === 'light') {
          if ((DOCS_SCREENS as readonly string[]).includes(label)) {
            // JPEG: a screen's gradients and photos keep each picture well under the limit.
            await mkdir('docs/images', { recursive: true });
            const target = `docs/images/${slug(label)}.jpg`;
            await page.screenshot({ path: target, type: 'jpeg', quality: 85, animations: 'disabled' });
            expect((await stat(target)).size, target).toBeLessThanOrEqual(DOCS_IMAGE_MAX_BYTES);
          }
        }
      }
    }
    expect(problems).toEqual({});
  });
}
