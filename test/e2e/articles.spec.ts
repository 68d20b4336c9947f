import type { Article } from '../../src-shared/api/articles';
import { expect, test } from './support/fixtures';
import { goTo, screenshot } from './support/page';
import { sandboxApi } from './support/web-host';

test('write an article in Markdown, preview it, publish it, and see each destination’s result', async ({
  app: page,
  host,
}) => {
  const title = `Shipping a desktop app ${Date.now().toString(36)}`;
  await goTo(page, 'Articles');
  await page.getByLabel('Title').fill(title);
  await page
    .getByLabel('Body (Markdown)')
    .fill(
      '## What we learned\n\n- Keep the **bridge** typed\n- Test in a real browser\n\n<script>alert(1)</script>',
    );
  const preview = page.getByRole('region', { name: 'Preview' });
  await expect(preview.getByRole('heading', { name: 'What we learned' })).toBeVisible();
  await expect(preview.locator('strong', { hasText: 'bridge' })).toBeVisible();
  // Raw HTML in the Markdown is not rendered.
  await expect(preview.locator('script')).toHaveCount(0);
  await page.getByRole('checkbox', { name: /Hashnode/ }).check();
  await page.getByRole('checkbox', { name: /LinkedIn/ }).check();
  await screenshot(page, 'article-editor');

  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  const view = page.getByRole('article', { name: title });
  await expect(view).toBeVisible();
  const results = view.getByRole('list', { name: 'Results per destination' }).getByRole('listitem');
  await expect(results).toHaveCount(3);
  for (const d of ['DEV', 'Hashnode', 'LinkedIn'])
    await expect(view.getByRole('listitem', { name: d })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Articles' })).toContainText(title);
  await screenshot(page, 'article-published');

  const { articles } = await sandboxApi<{ articles: Article[] }>(host, '/api/cli/articles?limit=100');
  const stored = articles.find((a) => a.title === title);
  expect(stored).toMatchObject({ status: 'published' });
  expect(stored?.targets.map((t) => `${t.destination} ${t.status}`).sort()).toEqual([
    'devto published',
    'hashnode published',
    'linkedin published',
  ]);
});
