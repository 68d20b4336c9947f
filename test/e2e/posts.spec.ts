import type { Account } from '../../src-shared/api/accounts';
import type { CreatePostResponse, Delivery } from '../../src-shared/api/posts';
import { expect, test } from './support/fixtures';
import { dayAfter } from './support/dates';
import { goTo, screenshot } from './support/page';
import { sandboxApi, type WebHost } from './support/web-host';

async function createPost(host: WebHost, caption: string, scheduledAt?: string): Promise<CreatePostResponse> {
  const { accounts } = await sandboxApi<{ accounts: Account[] }>(host, '/api/cli/accounts');
  const x = accounts.find((a) => a.platform === 'x');
  return sandboxApi<CreatePostResponse>(host, '/api/cli/posts', {
    method: 'POST',
    body: JSON.stringify({
      caption,
      targets: [{ social_account_id: x?.id, platform: 'x' }],
      ...(scheduledAt ? { scheduled_at: scheduledAt } : {}),
    }),
  });
}

test('edit a scheduled post, cancel it to draft, and read why a published one offers no delete', async ({
  app: page,
  host,
}) => {
  const tag = Date.now().toString(36);
  const scheduled = await createPost(host, `Edit me ${tag}`, `${dayAfter(4)}T15:00:00Z`);
  await createPost(host, `Already out ${tag}`);

  // Keyboard: `g` then `p` opens Posts.
  await goTo(page, 'Compose');
  await page.keyboard.press('g');
  await page.keyboard.press('p');
  await expect(page.getByRole('heading', { level: 1, name: 'Posts' })).toBeVisible();
  await page.getByLabel('Search').fill(tag);
  await expect(page.getByRole('row').filter({ hasText: tag })).toHaveCount(2);

  await page.getByRole('button', { name: new RegExp(`^Edit post: Edit me ${tag}`) }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit post' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Caption').fill(`Edited ${tag}`);
  await dialog.getByRole('button', { name: 'Save caption' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('row').filter({ hasText: `Edited ${tag}` })).toContainText('scheduled');

  await page.getByRole('button', { name: new RegExp(`^Edit post: Edited ${tag}`) }).click();
  await dialog.getByRole('button', { name: 'Cancel to draft' }).click();
  await expect(page.getByRole('row').filter({ hasText: `Edited ${tag}` })).toContainText('draft');
  const id = scheduled.social_posts[0]?.id;
  const { posts } = await sandboxApi<{ posts: Delivery[] }>(host, '/api/cli/posts?status=draft&limit=100');
  expect(posts.find((p) => p.id === id)?.caption).toBe(`Edited ${tag}`);

  // Esc closes a dialog.
  await page.getByRole('button', { name: new RegExp(`^Open post: Already out ${tag}`) }).click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // A published delivery: nothing is offered that the service would refuse, and the dialog says why.
  await page.getByRole('button', { name: new RegExp(`^Open post: Already out ${tag}`) }).click();
  await expect(dialog.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: 'Save caption' })).toHaveCount(0);
  await expect(dialog).toContainText('Published posts stay on X; remove them there.');
  await expect(dialog).toContainText('This post is already published on X; make a new post instead.');
  await screenshot(page, 'posts-published');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('row').filter({ hasText: `Already out ${tag}` })).toContainText('posted');
});
