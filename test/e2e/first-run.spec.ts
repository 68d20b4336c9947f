import AxeBuilder from '@axe-core/playwright';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expect, test, type Page } from '@playwright/test';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startSandbox } from '../../src-sandbox/app';
import { DEMO_ACCOUNTS, DEMO_AUTOMATIONS, demoFixture } from '../../src-sandbox/demo-fixture';
import { dayAfter } from './support/dates';
import { openConnected, screenshot } from './support/page';
import { sandboxApi, startWebHost, type WebHost } from './support/web-host';

/**
 * Issue 26, item 7: the first-run checklist on Home. A newcomer's service holds nothing yet (the demo fixture
 * without its sample content), so every step starts undone; each step is then done for real (posting times in the
 * local store, a draft of a run approved in the Inbox, a post on the service, an assistant started through
 * `postdesk mcp`) and Home ticks it from what is held. Put away, it stays away after a reload.
 */

const EXECUTOR = 'e2e-executor';
let host: WebHost;

test.beforeAll(async () => {
  // A data directory whose sandbox store was seeded with the fixture alone: accounts and automations, no posts.
  const dataDir = await mkdtemp(join(tmpdir(), 'postdesk-e2e-first-'));
  const fixture = demoFixture();
  const owner = fixture.owners?.[0] as {
    executors?: unknown[];
    automations: { id: string; targets: unknown[] }[];
  };
  owner.executors = [{ id: EXECUTOR, name: 'E2E runner', agent_type: 'card' }];
  // The tips automation drafts for X alone here, so a text-only draft is one every target accepts.
  const tips = owner.automations.find((a) => a.id === DEMO_AUTOMATIONS.dailyTips);
  if (tips) tips.targets = [{ social_account_id: DEMO_ACCOUNTS.x, platform: 'x' }];
  const sb = await startSandbox({ port: 0, quiet: true, dataDir: join(dataDir, 'sandbox'), fixture });
  await sb.close();
  host = await startWebHost({ dataDir });
});
test.afterAll(async () => {
  await host?.stop();
});

const step = (page: Page, title: string) =>
  page.getByRole('region', { name: 'Get started' }).getByRole('listitem').filter({ hasText: title });

async function home(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
}

async function expectSteps(page: Page, done: Record<string, boolean>): Promise<void> {
  for (const [title, isDone] of Object.entries(done)) {
    await expect(step(page, title), title).toContainText(isDone ? 'Done' : 'Not done yet');
  }
  const count = Object.values(done).filter(Boolean).length;
  await expect(page.getByRole('region', { name: 'Get started' })).toContainText(
    count === 4 ? 'All four done' : `${count} of 4 done`,
  );
}

test('each step of the checklist is ticked once it is really done, and a hidden checklist stays hidden', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await openConnected(page, await host.nextUrl());
  // The app opens on Home, with nothing done.
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  await expectSteps(page, {
    'Set posting times': false,
    'Write a first post': false,
    'Approve an inbox draft': false,
    'Connect an AI assistant': false,
  });
  await screenshot(page, 'first-run-empty');

  // Each step links to the screen that does it.
  for (const [title, heading] of [
    ['Set posting times', 'Queue'],
    ['Write a first post', 'Compose'],
    ['Approve an inbox draft', 'Inbox'],
    ['Connect an AI assistant', 'AI assistant'],
  ] as const) {
    await step(page, title).getByRole('link', { name: title }).click();
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await home(page);
  }

  // 1. Posting times, set for the X account (in this computer's store, as the Queue screen keeps them).
  await host.cli([
    '--sandbox',
    'queue',
    'set',
    DEMO_ACCOUNTS.x,
    '--slot',
    'mon-fri 09:00',
    '--timezone',
    'UTC',
  ]);
  await page.reload();
  await expectSteps(page, {
    'Set posting times': true,
    'Write a first post': false,
    'Approve an inbox draft': false,
    'Connect an AI assistant': false,
  });

  // 2. A draft-mode run leaves a draft (as an executor completes a run), and it is approved in the Inbox. A run's
  // post is not the person's first post.
  const { run } = await sandboxApi<{ run: { id: string } }>(
    host,
    `/api/agent/automations/${DEMO_AUTOMATIONS.dailyTips}/start`,
    {
      method: 'POST',
      body: JSON.stringify({
        executor_id: EXECUTOR,
        revision: 1,
        idempotency_key: `first-run-${Date.now()}`,
        scheduled_for: new Date().toISOString(),
      }),
    },
  );
  const caption = `A tip worth sharing ${Date.now().toString(36)}`;
  await sandboxApi(host, `/api/agent/runs/${run.id}/complete-local`, {
    method: 'POST',
    body: JSON.stringify({ caption, executor_id: EXECUTOR }),
  });
  await step(page, 'Approve an inbox draft').getByRole('link').click();
  const draft = page.getByRole('listitem', { name: `Draft: ${caption}` });
  await draft.getByRole('button', { name: 'Approve now' }).click();
  await expect(draft).toHaveCount(0, { timeout: 20_000 });
  await home(page);
  await expectSteps(page, {
    'Set posting times': true,
    'Write a first post': false,
    'Approve an inbox draft': true,
    'Connect an AI assistant': false,
  });

  // 3. A post of the person's own, scheduled for tomorrow.
  await sandboxApi(host, '/api/cli/posts', {
    method: 'POST',
    body: JSON.stringify({
      caption: 'My first post from Postdesk',
      scheduled_at: `${dayAfter(1)}T09:00:00Z`,
      targets: [{ social_account_id: DEMO_ACCOUNTS.x, platform: 'x' }],
    }),
  });
  await page.reload();
  await expectSteps(page, {
    'Set posting times': true,
    'Write a first post': true,
    'Approve an inbox draft': true,
    'Connect an AI assistant': false,
  });

  // 4. An assistant starts `postdesk mcp` (its stdio server) and lists the tools.
  const client = new Client({ name: 'e2e-assistant', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [resolve(import.meta.dirname, '../../bin/postdesk.js'), '--sandbox', 'mcp'],
      env: { PATH: process.env.PATH ?? '', POSTDESK_DATA_DIR: host.dataDir },
      stderr: 'pipe',
    }),
  );
  try {
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  } finally {
    await client.close();
  }
  await page.reload();
  await expectSteps(page, {
    'Set posting times': true,
    'Write a first post': true,
    'Approve an inbox draft': true,
    'Connect an AI assistant': true,
  });
  await screenshot(page, 'first-run-done');
  // Done and not done, in both themes: nothing serious or critical for axe.
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const axe = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
      .analyze();
    expect(
      axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
      scheme,
    ).toEqual([]);
  }

  // Put away: gone, and still gone after a reload (a preference, kept by the host).
  await page.getByRole('button', { name: 'Hide checklist' }).click();
  await expect(page.getByRole('region', { name: 'Get started' })).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  await expect(page.getByText('The getting-started checklist is hidden.')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Get started' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Show it again' }).click();
  await expect(page.getByRole('region', { name: 'Get started' })).toBeVisible();
});
