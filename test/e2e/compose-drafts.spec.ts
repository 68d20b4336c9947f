import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import type { Delivery } from '../../src-shared/api/posts';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from './support/fixtures';
import type { TestFile } from './support/media-files';
import { dropFiles, goTo, screenshot } from './support/page';
import { sandboxApi, type WebHost } from './support/web-host';

let counter = 0;
/** A caption no other flow on this host has used. */
const caption = () => `Draft ${Date.now().toString(36)}-${++counter}`;

/** Starts each flow from an empty composer, whatever an earlier flow on this host left. */
async function freshCompose(page: Page): Promise<void> {
  await goTo(page, 'Compose');
  await page.getByRole('button', { name: 'New post' }).click();
  await expect(page.getByRole('textbox', { name: 'Caption' })).toHaveValue('');
}

/** Leaves the composer empty and discards every local draft: the host is shared with the other flows. */
async function discardAll(page: Page): Promise<void> {
  await goTo(page, 'Compose');
  await page.getByRole('button', { name: 'New post' }).click();
  const drafts = page.getByRole('list', { name: 'Local drafts' }).getByRole('listitem');
  await expect(async () => {
    if ((await drafts.count()) > 0)
      await drafts
        .first()
        .getByRole('button', { name: /^Discard/ })
        .click();
    await expect(drafts).toHaveCount(0, { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
}

test.afterEach(async ({ app }) => discardAll(app));

test('the X preview counts a URL as 23 and warns past 280, naming X', async ({ app: page }) => {
  await freshCompose(page);
  await page.getByRole('checkbox', { name: /Demo X/ }).check();
  await page.getByRole('checkbox', { name: /Demo Instagram/ }).check();
  const url = 'https://example.com/a/rather/long/address/that/goes/on/for/a/while?campaign=launch';
  await page.getByRole('textbox', { name: 'Caption' }).fill(`Read ${url}`);

  const x = page.getByRole('article', { name: 'Preview on X' });
  // "Read " is 5, the URL 23 however long it is; Instagram counts every character.
  await expect(x.getByLabel('X counts 28 of 280 characters')).toBeVisible();
  await expect(
    page
      .getByRole('article', { name: 'Preview on Instagram' })
      .getByLabel(`Instagram counts ${5 + url.length} of 2200 characters`),
  ).toBeVisible();
  await expect(page.getByText(/X takes at most 280/)).toHaveCount(0);

  // A long caption: X warns with its number; the service's 2,200 stays the rule, so it can still be sent.
  const long = `${'A sentence that keeps going. '.repeat(11)}${url}`;
  await page.getByRole('textbox', { name: 'Caption' }).fill(long);
  await expect(page.getByText(/X takes at most 280 characters; this caption counts 342 there/)).toBeVisible();
  await expect(page.getByText(/Instagram takes at most/)).toHaveCount(0);
  // Instagram folds its feed after about 125 characters.
  const ig = page.getByRole('article', { name: 'Preview on Instagram' });
  await expect(ig.getByRole('button', { name: 'more' })).toBeVisible();
  await screenshot(page, 'compose-previews');
  await ig.getByRole('button', { name: 'more' }).click();
  await expect(ig).toContainText(url);

  // A short window: the submit button stays in view without scrolling, and after scrolling to the end.
  await page.setViewportSize({ width: 1100, height: 520 });
  const submit = page.getByRole('button', { name: 'Publish now', exact: true });
  await expect(submit).toBeInViewport();
  await page.getByRole('heading', { name: 'Local drafts' }).scrollIntoViewIfNeeded();
  await expect(submit).toBeInViewport();
  await page.screenshot({ path: 'test-results/screens/compose-short-window.png' });
});

test('the post being written survives leaving Compose and reloading the page', async ({ app: page }) => {
  await freshCompose(page);
  const text = caption();
  await page.getByRole('textbox', { name: 'Caption' }).fill(text);
  await page.getByRole('checkbox', { name: /Demo LinkedIn/ }).check();
  await page.getByRole('radio', { name: 'Save draft' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Kept on this computer' })).toBeVisible();

  await goTo(page, 'Posts');
  await goTo(page, 'Compose');
  await expect(page.getByRole('textbox', { name: 'Caption' })).toHaveValue(text);
  await expect(page.getByRole('checkbox', { name: /Demo LinkedIn/ })).toBeChecked();

  // Typed and reloaded at once, before the pause that keeps it: the page keeps it as it goes away.
  await page.getByRole('textbox', { name: 'Caption' }).fill(`${text}, and more`);
  await page.reload();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await goTo(page, 'Compose');
  await expect(page.getByRole('textbox', { name: 'Caption' })).toHaveValue(`${text}, and more`);
  await expect(page.getByRole('checkbox', { name: /Demo LinkedIn/ })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: /Demo X/ })).not.toBeChecked();
  await expect(page.getByRole('radio', { name: 'Save draft' })).toBeChecked();
  await screenshot(page, 'compose-restored');
});

test('what is typed before the kept post arrives is not replaced by it; the kept one stays a local draft', async ({
  app: page,
}) => {
  await freshCompose(page);
  const kept = caption();
  await page.getByRole('textbox', { name: 'Caption' }).fill(kept);
  await expect(page.getByRole('status').filter({ hasText: 'Kept on this computer' })).toBeVisible();

  // The host answers "the post this connection was writing" late, as a busy one does.
  let answered!: () => void;
  const late = new Promise<void>((r) => (answered = r));
  await page.routeWebSocket(/\/bridge/, (ws) => {
    const server = ws.connectToServer();
    const asked = new Set<number>();
    ws.onMessage((m) => {
      const call = JSON.parse(String(m)) as { t?: string; id?: number; channel?: string };
      if (call.t === 'invoke' && call.channel === 'compose:current' && call.id !== undefined)
        asked.add(call.id);
      server.send(m);
    });
    server.onMessage((m) => {
      const answer = JSON.parse(String(m)) as { t?: string; id?: number };
      if (answer.t === 'result' && answer.id !== undefined && asked.has(answer.id)) {
        setTimeout(() => {
          ws.send(m);
          answered();
        }, 1_500);
      } else ws.send(m);
    });
  });
  await page.reload();
  await goTo(page, 'Compose');
  const typed = caption();
  await page.getByRole('textbox', { name: 'Caption' }).fill(typed);
  await late;
  await expect(page.getByRole('textbox', { name: 'Caption' })).toHaveValue(typed);
  await expect(page.getByRole('status').filter({ hasText: 'Kept on this computer' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Local drafts' })).toContainText(kept);
});

test('"n" starts a fresh post and keeps the previous one as a local draft', async ({ app: page }) => {
  await freshCompose(page);
  const first = caption();
  await page.getByRole('textbox', { name: 'Caption' }).fill(first);
  await page.getByRole('checkbox', { name: /Demo TikTok/ }).check();
  await expect(page.getByRole('status').filter({ hasText: 'Kept on this computer' })).toBeVisible();

  await page.getByRole('heading', { level: 1, name: 'Compose' }).click(); // out of the text field
  await page.keyboard.press('n');
  await expect(page.getByRole('textbox', { name: 'Caption' })).toHaveValue('');
  await expect(page.getByRole('checkbox', { name: /Demo TikTok/ })).not.toBeChecked();
  const drafts = page.getByRole('list', { name: 'Local drafts' });
  await expect(drafts.getByRole('listitem', { name: first })).toContainText('1 account');

  // The new one is kept too; continuing the first puts the new one in the list.
  const second = caption();
  await page.getByRole('textbox', { name: 'Caption' }).fill(second);
  await expect(page.getByRole('status').filter({ hasText: 'Kept on this computer' })).toBeVisible();
  await screenshot(page, 'compose-local-drafts');
  await drafts.getByRole('listitem', { name: first }).getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('textbox', { name: 'Caption' })).toHaveValue(first);
  await expect(page.getByRole('checkbox', { name: /Demo TikTok/ })).toBeChecked();
  await expect(drafts.getByRole('listitem', { name: second })).toBeVisible();
  await expect(drafts.getByRole('listitem', { name: first })).toHaveCount(0);

  // A reload shows the one that was continued.
  await page.reload();
  await goTo(page, 'Compose');
  await expect(page.getByRole('textbox', { name: 'Caption' })).toHaveValue(first);
});

/**
 * A portrait PNG of its own (made by ffmpeg), so no other flow on this shared host has uploaded the same
 * bytes: the other flows' "Uploaded" stays theirs.
 */
async function portraitPng(): Promise<TestFile> {
  const dir = await mkdtemp(join(tmpdir(), 'postdesk-e2e-library-'));
  try {
    const file = join(dir, 'portrait.png');
    const args = ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'];
    await promisify(execFile)('ffmpeg', [...args, '-i', 'smptebars=size=360x640', '-frames:v', '1', file]);
    return { name: 'portrait.png', type: 'image/png', base64: (await readFile(file)).toString('base64') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function sandboxMedia(host: WebHost) {
  return (await sandboxApi<{ media: { pending?: number; uploaded?: number } }>(host, '/_sandbox/state'))
    .media;
}

test('media from the library is reused without uploading it again', async ({ app: page, host }) => {
  await freshCompose(page);
  await dropFiles(page, page.getByRole('group', { name: 'Media drop zone' }), [await portraitPng()]);
  const attached = page.getByRole('list', { name: 'Attached media' });
  await expect(attached.getByRole('listitem', { name: 'portrait.png' })).toContainText('Uploaded', {
    timeout: 20_000,
  });
  // The drop zone gives the post its room once a file is in.
  await expect(page.getByRole('group', { name: 'Media drop zone' })).toContainText('Drop more files');

  await page.keyboard.press('Escape');
  await page.getByRole('heading', { level: 1, name: 'Compose' }).click();
  await page.keyboard.press('n');
  await expect(attached).toHaveCount(0);

  // From here on: no file goes to the host, no upload is asked for, the service stores nothing new.
  const before = await sandboxMedia(host);
  const uploads: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/bridge/files')) uploads.push(r.url());
  });
  page.on('websocket', (ws) =>
    ws.on('framesent', (f) => {
      if (String(f.payload).includes('media:upload')) uploads.push('media:upload');
    }),
  );

  await page.getByRole('button', { name: 'Reuse uploaded media' }).click();
  const library = page.getByRole('list', { name: 'Media library' });
  const item = library.getByRole('listitem', { name: 'portrait.png' }).first();
  await expect(item.getByRole('img', { name: 'Preview of portrait.png' })).toBeVisible();
  await item.getByRole('button', { name: 'Add portrait.png to the post' }).click();
  await expect(attached.getByRole('listitem', { name: 'portrait.png' })).toContainText(
    'Already uploaded, reused',
  );
  await expect(item.getByRole('button', { name: 'portrait.png is in the post' })).toBeDisabled();

  const text = caption();
  await page.getByRole('textbox', { name: 'Caption' }).fill(text);
  await page.getByRole('checkbox', { name: /Demo Instagram/ }).check();
  await page.getByRole('checkbox', { name: /Demo X/ }).check();
  // The 9:16 image in each feed's frame: Instagram keeps at most 4:5 of it, X at most 3:4.
  const shape = async (platform: string) => {
    const box = await page
      .getByRole('article', { name: `Preview on ${platform}` })
      .getByRole('img', { name: 'First image, portrait.png' })
      .boundingBox();
    return box ? box.width / box.height : 0;
  };
  await expect.poll(() => shape('Instagram')).toBeCloseTo(4 / 5, 1);
  await expect.poll(() => shape('X')).toBeCloseTo(3 / 4, 1);
  await page.getByRole('checkbox', { name: /Demo X/ }).uncheck();
  await page.getByRole('radio', { name: 'Save draft' }).click();
  await screenshot(page, 'compose-library');
  // Previews, chips, the library and the local drafts, in light and dark: nothing serious for axe.
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const axe = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
      .analyze();
    expect(
      axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
    ).toEqual([]);
  }
  await page.getByRole('button', { name: 'Save draft', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Posts' })).toBeVisible();

  const drafts = await sandboxApi<{ posts: Delivery[] }>(host, '/api/cli/posts?status=draft&limit=100');
  const made = drafts.posts.filter((p) => p.caption === text);
  expect(made).toHaveLength(1);
  expect(made[0]?.media).toHaveLength(1);
  expect(made[0]?.media?.[0]?.asset_id).toMatch(/^[0-9a-f-]{36}$/);
  expect(uploads).toEqual([]);
  expect(await sandboxMedia(host)).toEqual(before);
});
