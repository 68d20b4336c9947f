import { violations } from './support/axe';
import { expect, test } from './support/fixtures';
import { SCREENS, goTo, screenshot } from './support/page';

/**
 * Issue 17, item 16: every screen, in light and in dark, has no serious or critical accessibility violation
 * by axe-core (WCAG 2 A and AA rules, colour contrast included), with its data loaded.
 */

for (const scheme of ['light', 'dark'] as const) {
  test(`every screen has no serious or critical axe violation (${scheme})`, async ({ app: page }) => {
    test.setTimeout(180_000);
    await page.emulateMedia({ colorScheme: scheme });
    const found: Record<string, unknown> = {};
    for (const label of SCREENS) {
      await goTo(page, label);
      // Loaded, not loading: the checks are of the screen a person reads.
      await expect(page.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0, {
        timeout: 20_000,
      });
      const v = await violations(page);
      if (v.length) found[label] = v;
      await screenshot(page, `a11y-${label.toLowerCase()}-${scheme}`);
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
