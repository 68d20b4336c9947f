import AxeBuilder from '@axe-core/playwright';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Page } from '@playwright/test';
import { resolve } from 'node:path';
import { expect, test } from './support/fixtures';
import { goTo, screenshot } from './support/page';
import { sandboxApi } from './support/web-host';

/**
 * Issue 25 in the page: Connect an AI assistant (the MCP address, copy-ready setups, and for the sandbox the
 * SDK client through the whole OAuth flow); a request `postdesk mcp` made waits in the Inbox beside its
 * previews and is sent once when approved; the activity lists it. Light and dark, with axe.
 */

async function violations(page: Page) {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ rule: v.id, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
}

for (const scheme of ['light', 'dark'] as const) {
  test(`AI assistant: address, setups and the connection test (${scheme})`, async ({ app: page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    // Settings says where the policies are set.
    await goTo(page, 'Settings');
    await page.getByRole('link', { name: 'Tool policies, setup and activity' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'AI assistant' })).toBeVisible();
    await expect(page.locator('code', { hasText: /\/api\/mcp$/ }).first()).toBeVisible();
    await page.getByRole('radio', { name: 'Cursor' }).click();
    await expect(page.getByLabel('Setup for Cursor')).toContainText('"command": "postdesk"');
    await page.getByRole('radio', { name: /Directly, signing in with OAuth/ }).click();
    await expect(page.getByLabel('Setup for Cursor')).toContainText('/api/mcp');

    await page.getByRole('button', { name: 'Test the connection' }).click();
    const result = page.getByRole('status', { name: 'Connection test result' });
    await expect(result).toContainText(/Connected: \d+ tools\./, { timeout: 20_000 });
    await expect(result).toContainText('without a token: 401');
    await expect(result).toContainText('Registered as a client');
    await expect(page.getByRole('list', { name: 'Tools the assistant sees' })).toContainText('create_post');
    expect(await violations(page)).toEqual([]);
    await screenshot(page, `assistant-${scheme}`);
  });
}

test('a request of postdesk mcp waits in the Inbox, then is sent once when approved', async ({
  app: page,
  host,
}) => {
  test.setTimeout(90_000);
  const accounts = await sandboxApi<{ accounts: { id: string; platform: string }[] }>(
    host,
    '/api/cli/accounts',
  );
  const x = accounts.accounts.find((a) => a.platform === 'x')!;
  const li = accounts.accounts.find((a) => a.platform === 'linkedin')!;
  // The Inbox is open before the request is made: it arrives by itself (postdesk mcp is another process).
  await goTo(page, 'Inbox');
  const client = new Client({ name: 'e2e-assistant', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [resolve(import.meta.dirname, '../../bin/postdesk.js'), '--sandbox', 'mcp'],
      env: { PATH: process.env.PATH ?? '', POSTDESK_DATA_DIR: host.dataDir },
      stderr: 'pipe',
    }),
  );
  const caption = `Asked by an assistant ${Date.now()}`;
  try {
    const answer = await client.callTool({
      name: 'create_post',
      arguments: {
        caption,
        action: 'draft',
        targets: [
          { social_account_id: x.id, platform: 'x' },
          { social_account_id: li.id, platform: 'linkedin' },
        ],
      },
    });
    expect((answer.content as { text: string }[])[0]!.text).toContain('Waiting for approval in Postdesk');
  } finally {
    await client.close();
  }

  const request = page.getByRole('listitem', { name: 'Create post request' });
  await expect(request).toBeVisible({ timeout: 15_000 });
  // The count is of everything waiting: the request, beside the drafts of runs (the demo starts with some).
  const drafts = await sandboxApi<{ posts: { post_id: string; run_id?: string | null }[] }>(
    host,
    '/api/cli/posts?status=draft&limit=100',
  );
  const waitingDrafts = new Set(drafts.posts.filter((d) => d.run_id).map((d) => d.post_id)).size;
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /Inbox/ }),
  ).toContainText(String(waitingDrafts + 1));
  // Beside its per-platform previews.
  await expect(request.getByRole('region', { name: 'Previews' })).toContainText(caption);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await violations(page)).toEqual([]);
    await screenshot(page, `assistant-proposal-${scheme}`);
  }
  const count = async () =>
    (await sandboxApi<{ posts: { caption: string }[] }>(host, '/api/cli/posts?limit=100')).posts.filter(
      (p) => p.caption === caption,
    ).length;
  expect(await count()).toBe(0);
  await request.getByRole('button', { name: 'Approve and send' }).click();
  await expect(request).toHaveCount(0);
  // One post, one delivery per target.
  expect(await count()).toBe(2);

  await goTo(page, 'AI assistant');
  await expect(page.getByRole('cell', { name: 'Sent' }).first()).toBeVisible();
});
