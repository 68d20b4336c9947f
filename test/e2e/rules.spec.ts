import type { Account } from '../../src-shared/api/accounts';
import type { CreatePostResponse } from '../../src-shared/api/posts';
import { expect, test } from './support/fixtures';
import { dropFiles, goTo, screenshot } from './support/page';
import { sandboxApi } from './support/web-host';

/**
 * What the screen says is what happens: nothing is offered that the service would refuse (the transition
 * table), the bulk dry run knows what the app knows, and Compose holds back what a platform certainly refuses.
 */

test('a published post offers no Delete, and says why where Delete would be', async ({ app: page, host }) => {
  const { accounts } = await sandboxApi<{ accounts: Account[] }>(host, '/api/cli/accounts');
  const x = accounts.find((a) => a.platform === 'x');
  const tag = Date.now().toString(36);
  await sandboxApi<CreatePostResponse>(host, '/api/cli/posts', {
    method: 'POST',
    body: JSON.stringify({
      caption: `Published ${tag}`,
      targets: [{ social_account_id: x?.id, platform: 'x' }],
    }),
  });
  await goTo(page, 'Posts');
  await page.getByRole('button', { name: 'Refresh' }).click();
  await page.getByLabel('Search').fill(tag);
  const row = page.getByRole('article').filter({ hasText: `Published ${tag}` });
  await expect(row).toContainText('posted');
  // Opened to be read: "Edit" is not offered for a post nothing of which can change.
  await expect(row.getByRole('button', { name: /^Edit post:/ })).toHaveCount(0);
  await row.getByRole('button', { name: new RegExp(`delivery: Published ${tag}`) }).click();

  const detail = page.getByRole('region', { name: `Deliveries of Published ${tag}` });
  await expect(detail).toBeVisible();
  await expect(detail.getByRole('button', { name: /Delete/ })).toHaveCount(0);
  await expect(detail).toContainText('Published posts stay on X; remove them there.');
  await expect(detail).toContainText('This post is already published on X; make a new post instead.');
  // The whole post's actions (its "…" menu): what no longer applies is not offered; what still does is.
  await row.getByRole('button', { name: new RegExp(`^Actions for post: Published ${tag}`) }).click();
  const menu = page.getByRole('menu');
  await expect(menu.getByRole('menuitem', { name: 'Edit caption and time' })).toHaveCount(0);
  await expect(menu.getByRole('menuitem', { name: 'Publish now' })).toHaveCount(0);
  await expect(menu.getByRole('menuitem', { name: 'Cancel to draft' })).toHaveCount(0);
  await expect(menu.getByRole('menuitem', { name: 'Duplicate as draft' })).toBeVisible();
  await page.keyboard.press('Escape');
  await screenshot(page, 'rules-published-detail');
});

test('the dry run flags an unknown account and a YouTube row before Submit, naming row and column', async ({
  app: page,
  host,
}) => {
  const { accounts } = await sandboxApi<{ accounts: Account[] }>(host, '/api/cli/accounts');
  const linkedin = accounts.find((a) => a.platform === 'linkedin');
  const youtube = accounts.find((a) => a.platform === 'youtube');
  const tag = Date.now().toString(36);
  const stranger = '99999999-9999-4999-8999-999999999999';
  const csv = [
    'caption,targets,action',
    `"Fine ${tag}",linkedin:${linkedin?.id},draft`,
    `"Nobody ${tag}",linkedin:${stranger},draft`,
    `"Tube ${tag}",youtube:${youtube?.id},draft`,
  ].join('\n');

  await goTo(page, 'Bulk');
  await dropFiles(page, page.getByRole('group', { name: 'CSV drop zone' }), [
    { name: `rules-${tag}.csv`, type: 'text/csv', base64: Buffer.from(csv).toString('base64') },
  ]);
  await expect(page.getByRole('heading', { name: `Dry run: rules-${tag}.csv` })).toBeVisible();
  const summary = page.getByLabel('Plan summary').getByRole('definition');
  await expect(summary.nth(1)).toHaveText('1');
  await expect(summary.nth(2)).toHaveText('2');

  const table = page.getByRole('table', { name: 'Validation' });
  const nobody = table.getByRole('row').filter({ hasText: `Nobody ${tag}` });
  await expect(nobody.getByRole('cell').first()).toHaveText('2');
  await expect(nobody).toContainText(`targets: no connected account has the id ${stranger}`);
  await expect(nobody).not.toContainText('ok');
  const tube = table.getByRole('row').filter({ hasText: `Tube ${tag}` });
  await expect(tube.getByRole('cell').first()).toHaveText('3');
  await expect(tube).toContainText('targets: YouTube cannot be reached by posts');
  // Words, never a field path.
  await expect(table).not.toContainText('targets.0');
  await expect(table).not.toContainText('social_account_id');
  await screenshot(page, 'rules-bulk-dry-run');

  // After Submit, the row table shows each row's real outcome.
  await page.getByRole('button', { name: 'Submit 1 post in 1 batch' }).click();
  await expect(page.getByText('Submitted 1 batch: 1 created, 0 failed.')).toBeVisible({ timeout: 30_000 });
  await expect(table.getByRole('row').filter({ hasText: `Fine ${tag}` })).toContainText('created');

  // The same file again: "Imported before" at the dry run, not only after Submit.
  await page.getByRole('button', { name: 'Import another CSV' }).click();
  await dropFiles(page, page.getByRole('group', { name: 'CSV drop zone' }), [
    { name: `rules-${tag}.csv`, type: 'text/csv', base64: Buffer.from(csv).toString('base64') },
  ]);
  await expect(page.getByRole('heading', { name: `Imported before: rules-${tag}.csv` })).toBeVisible();
  await expect(page.getByText(/Submit reports that import and sends nothing again/)).toBeVisible();
});

test('Compose holds back an Instagram post with no media and an image with a video on X', async ({
  app: page,
  media,
}) => {
  await goTo(page, 'Compose');
  await page.getByRole('button', { name: 'New post' }).click();
  const caption = `Rules ${Date.now().toString(36)}`;
  await page.getByRole('textbox', { name: 'Caption' }).fill(caption);
  const blockers = page.getByRole('list', { name: 'Before you can submit' });

  await page.getByRole('checkbox', { name: /Instagram/ }).check();
  await expect(blockers).toContainText('Instagram needs at least 1 image or video; this post has none.');
  await expect(page.getByRole('button', { name: 'Publish now' })).toBeDisabled();
  await screenshot(page, 'rules-compose-instagram');
  await page.getByRole('checkbox', { name: /Instagram/ }).uncheck();

  await page.getByRole('checkbox', { name: /Demo X/ }).check();
  await dropFiles(page, page.getByRole('group', { name: 'Media drop zone' }), [media.png, media.mp4]);
  const attached = page.getByRole('list', { name: 'Attached media' });
  for (const name of ['sunrise.png', 'teaser.mp4']) {
    // Another flow on the shared host may have sent the same bytes already: then it is reused, not sent again.
    await expect(attached.getByRole('listitem', { name })).toContainText(
      /Uploaded|Already uploaded, reused/,
      {
        timeout: 20_000,
      },
    );
  }
  await expect(blockers).toContainText(
    'X takes images or a video, not both in one post; this one has 1 image and 1 video.',
  );
  await expect(page.getByRole('button', { name: 'Publish now' })).toBeDisabled();

  // A caption past X's 280 is a warning, not a block.
  await attached.getByRole('button', { name: 'Remove teaser.mp4' }).click();
  await page.getByRole('textbox', { name: 'Caption' }).fill('a'.repeat(300));
  await expect(
    page.getByText('X takes at most 280 characters; this caption counts 300 there (20 over).'),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Publish now' })).toBeEnabled();
  await page.getByRole('button', { name: 'New post' }).click();
});
