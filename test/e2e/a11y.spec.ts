import { violations } from './support/axe';
import { expect, test } from './support/fixtures';
import { SCREENS, goTo, screenshot } from './support/page';

/**
 * Issue 17, item 16 and issue 26: every screen of the navigation (Home and AI assistant included), in light and in
 * dark, has no serious or critical accessibility violation by axe-core (WCAG 2 A and AA rules, colour contrast
 * included), with its data loaded.
 */
const ALL_SCREENS = [...SCREENS, 'AI assistant'] as const;

// The light and the dark walk are the longest flows of the suite and share nothing but the worker's host: each may
// run on its own worker (and host), so that they do not hold one worker for both, one after the other.
test.describe.configure({ mode: 'parallel' });

for (const scheme of ['light', 'dark'] as const) {
  test(`every screen has no serious or critical axe violation (${scheme})`, async ({ app: page }) => {
    test.setTimeout(180_000);
    await page.emulateMedia({ colorScheme: scheme });
    const found: Record<string, unknown> = {};
    // Every link of the navigation is walked: a new screen cannot be left out.
    const nav = await page
      .getByRole('navigation', { name: 'Main' })
      .locator('.nav-link__label')
      .allInnerTexts();
    expect([...nav].sort()).toEqual([...ALL_SCREENS].sort());
    for (const label of ALL_SCREENS) {
      await goTo(page, label);
      // Loaded, not loading: the checks are of the screen a person reads.
      await expect(page.getByRole('status').filter({ hasText: /^(Loading|Checking)/ })).toHaveCount(0, {
        timeout: 20_000,
      });
      await expect(page.locator('.main .spinner')).toHaveCount(0, { timeout: 20_000 });
      const v = await violations(page);
      if (v.length) found[label] = v;
      await screenshot(page, `a11y-${label.toLowerCase().replaceAll(' ', '-')}-${scheme}`);
    }
    // A dialog, open: the post editor.
    await goTo(page, 'Posts');
    const edit = page.getByRole('button', { name: /^Edit post/ }).first();
    if (await edit.count()) {
      await edit.click();
      await expect(page.getByRole('dialog', { name: 'Edit post' })).toBeVisible();
      const v = await violations(page);
      if (v.length) found['Post dialog'] = v;
      await page.keyboard.press('Escape');
    }
    expect(found).toEqual({});
  });
}
